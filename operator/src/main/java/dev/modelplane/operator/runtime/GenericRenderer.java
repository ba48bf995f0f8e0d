package dev.modelplane.operator.runtime;

import java.util.List;

/**
 * Any container: {@code image} (required), {@code command} and {@code args} as given, TCP probes on the port.
 * {@code extraArgs} are ignored; the model is not staged unless the pod mounts it itself.
 */
public final class GenericRenderer implements RuntimeRenderer {
  public static final GenericRenderer INSTANCE = new GenericRenderer();

  private GenericRenderer() {
  }

  @Override
  public String runtimeName() {
    return "generic";
  }

  @Override
  public String containerName() {
    return "inference-server";
  }

  @Override
  public int defaultPort() {
    return 8080;
  }

  @Override
  public boolean usesModelInit() {
    return false;
  }

  @Override
  public String defaultHpaMetric() {
    return null;
  }

  @Override
  public String image(RuntimeInput in) {
    return RuntimeRenderer.pickImage(in, null);
  }

  @Override
  public List<String> args(RuntimeInput in) {
    return in.spec().args() == null ? List.of() : List.copyOf(in.spec().args());
  }

  @Override
  public Probes probes(int port) {
    return Probes.tcp(port);
  }
}
