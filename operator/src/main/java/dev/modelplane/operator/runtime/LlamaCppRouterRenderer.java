package dev.modelplane.operator.runtime;

import dev.modelplane.operator.runtime.ArgList.Flag;
import java.util.List;

/**
 * llama.cpp's {@code llama-server} in router mode: it loads models on demand from {@code /models}, which the user
 * mounts with {@code extraVolumes}. Argv: {@code --models-dir /models --port <p> --host <bindAddress|::> --metrics},
 * then {@code extraArgs}. No GPU flags, no model staging.
 */
public final class LlamaCppRouterRenderer implements RuntimeRenderer {
  public static final LlamaCppRouterRenderer INSTANCE = new LlamaCppRouterRenderer();
  static final Flag MODELS_DIR = new Flag("--models-dir");

  private LlamaCppRouterRenderer() {
  }

  @Override
  public String runtimeName() {
    return "llamacpp-router";
  }

  @Override
  public String containerName() {
    return "llama-server";
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
    return "llamacpp:requests_processing";
  }

  @Override
  public String image(RuntimeInput in) {
    return RuntimeRenderer.pickImage(in, LlamaCppRenderer.IMAGE_CPU);
  }

  @Override
  public int listenPort(RuntimeInput in) {
    return RuntimeRenderer.listenPortFrom(in, LlamaCppRenderer.PORT, defaultPort());
  }

  @Override
  public List<String> args(RuntimeInput in) {
    return new ArgList(in.extraArgs())
        .option(MODELS_DIR, "/models")
        .option(LlamaCppRenderer.PORT, Integer.toString(in.configuredPort(defaultPort())))
        .option(LlamaCppRenderer.HOST, in.bindAddress())
        .toggle(LlamaCppRenderer.METRICS)
        .extraArgs()
        .build();
  }

  @Override
  public Probes probes(int port) {
    return Probes.http("/health", port);
  }
}
