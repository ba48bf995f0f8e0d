package dev.modelplane.operator.llmkube.runtime;

import java.util.List;

/**
 * Any container: {@code image} (required), {@code command} and {@code args} as given, TCP probes on the port.
 * {@code extraArgs} are ignored; the model is not staged unless the pod mounts it itself.
 */
public final class GenericRenderer implements UserImageRenderer {
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
  public List<String> args(RuntimeInput in) {
    return in.spec().args() == null ? List.of() : List.copyOf(in.spec().args());
  }
}
