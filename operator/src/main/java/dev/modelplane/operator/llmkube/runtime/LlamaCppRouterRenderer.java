package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.common.servers.LlamaServerFlags;
import dev.modelplane.operator.llmkube.runtime.ArgList.Flag;
import java.util.List;

/**
 * llama.cpp's {@code llama-server} in router mode: it loads models on demand from {@code /models}, which the user
 * mounts with {@code extraVolumes}. Argv: {@code --models-dir /models --port <p> --host <bindAddress|::> --metrics},
 * then {@code extraArgs}. No GPU flags, no model staging.
 */
public final class LlamaCppRouterRenderer implements LlamaServerRenderer {
  public static final LlamaCppRouterRenderer INSTANCE = new LlamaCppRouterRenderer();
  static final Flag MODELS_DIR = new Flag(LlamaServerFlags.MODELS_DIR);

  private LlamaCppRouterRenderer() {
  }

  @Override
  public String runtimeName() {
    return "llamacpp-router";
  }

  @Override
  public boolean usesModelInit() {
    return false;
  }

  @Override
  public String image(RuntimeInput in) {
    return RuntimeRenderer.pickImage(in, LlamaCppRenderer.IMAGE_CPU);
  }

  @Override
  public List<String> args(RuntimeInput in) {
    ArgList args = new ArgList(in.extraArgs()).option(MODELS_DIR, "/models");
    return addListenAddress(args, in).toggle(METRICS).extraArgs().build();
  }
}
