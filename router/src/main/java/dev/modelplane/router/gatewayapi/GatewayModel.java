package dev.modelplane.router.gatewayapi;

import java.util.Collections;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What the Gateway API objects in the cluster ask modelplane's gateway to do: the ports to listen on, the route table
 * of each port and the status every object of ours should have. Built by {@link #compile}, a pure function of its
 * inputs; immutable and safe to share between threads once built.
 */
public final class GatewayModel {
  private static final GatewayModel EMPTY = new GatewayModel(new TreeSet<>(), Map.of(),
      new GatewayStatuses(Map.of(), Map.of(), Map.of(), Map.of()));

  private final SortedSet<Integer> ports;
  private final Map<Integer, RouteTable> tables;
  private final GatewayStatuses statuses;

  GatewayModel(SortedSet<Integer> ports, Map<Integer, RouteTable> tables, GatewayStatuses statuses) {
    this.ports = Collections.unmodifiableSortedSet(new TreeSet<>(ports));
    this.tables = Map.copyOf(tables);
    this.statuses = statuses;
  }

  /**
   * Compiles the model. Only GatewayClasses whose {@code spec.controllerName} is {@code in.controllerName()} count,
   * with the Gateways of those classes and the HTTPRoutes attached to them; everything else is left alone.
   */
  public static GatewayModel compile(GatewayInputs in) {
    return GatewayCompiler.compile(in);
  }

  /** A model without ports in which nothing matches. */
  public static GatewayModel empty() {
    return EMPTY;
  }

  /** The ports of the programmed listeners of our Gateways, in ascending order. */
  public SortedSet<Integer> listenerPorts() {
    return ports;
  }

  /** Whether a programmed listener of ours is on {@code port}. */
  public boolean serves(int port) {
    return ports.contains(port);
  }

  /**
   * The rule that the request on {@code port} matches under the Gateway API's precedence rules, or null when none
   * does (the gateway then answers 404).
   */
  public RouteMatch match(int port, HttpRequestView request) {
    RouteTable table = tables.get(port);
    return table == null ? null : table.match(request);
  }

  /** The desired statuses of the objects of ours, see {@link GatewayStatuses}. */
  public GatewayStatuses statuses() {
    return statuses;
  }
}
