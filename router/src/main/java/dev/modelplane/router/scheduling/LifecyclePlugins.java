package dev.modelplane.router.scheduling;

import dev.modelplane.router.plugin.Plugin;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The plugins the director runs around scheduling, each list in declaration order: PrepareData before the scheduler,
 * PreRequest after it, ResponseReceived when response headers arrive, ResponseComplete when the response is over.
 */
public record LifecyclePlugins(List<PrepareDataPlugin> prepareData, List<PreRequestPlugin> preRequest,
    List<ResponseReceivedPlugin> responseReceived, List<ResponseCompletePlugin> responseComplete) {

  /** No plugins. */
  public static final LifecyclePlugins NONE = new LifecyclePlugins(List.of(), List.of(), List.of(), List.of());

  public LifecyclePlugins {
    prepareData = List.copyOf(prepareData);
    preRequest = List.copyOf(preRequest);
    responseReceived = List.copyOf(responseReceived);
    responseComplete = List.copyOf(responseComplete);
  }

  /** Sorts plugin instances into the lifecycle points they implement (a plugin may implement several). */
  public static LifecyclePlugins of(Collection<Plugin> plugins) {
    List<PrepareDataPlugin> prepare = new ArrayList<>();
    List<PreRequestPlugin> pre = new ArrayList<>();
    List<ResponseReceivedPlugin> received = new ArrayList<>();
    List<ResponseCompletePlugin> complete = new ArrayList<>();
    for (Plugin p : plugins) {
      if (p instanceof PrepareDataPlugin x) {
        prepare.add(x);
      }
      if (p instanceof PreRequestPlugin x) {
        pre.add(x);
      }
      if (p instanceof ResponseReceivedPlugin x) {
        received.add(x);
      }
      if (p instanceof ResponseCompletePlugin x) {
        complete.add(x);
      }
    }
    // Stable: configuration order within each group, refining plugins last.
    prepare.sort(java.util.Comparator.comparing(PrepareDataPlugin::refines));
    return new LifecyclePlugins(prepare, pre, received, complete);
  }
}
