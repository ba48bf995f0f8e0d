package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.TgiConfig;
import dev.modelplane.common.servers.TgiFlags;
import dev.modelplane.operator.common.EnumValues;
import dev.modelplane.operator.llmkube.runtime.ArgList.Flag;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.List;

/**
 * Hugging Face Text Generation Inference. Argv order: {@code --model-id <id|path> [--revision] --port <p>
 * --hostname ::}, then {@code --quantize}, {@code --max-input-length}, {@code --max-total-tokens}, {@code --dtype},
 * {@code --num-shard <gpus>} (above 1), then {@code extraArgs}. The token goes to {@code HUGGING_FACE_HUB_TOKEN}.
 */
public final class TgiRenderer implements RuntimeRenderer {
  public static final TgiRenderer INSTANCE = new TgiRenderer();
  public static final String IMAGE = "ghcr.io/huggingface/text-generation-inference:3.3.7";

  static final Flag MODEL_ID = new Flag(TgiFlags.MODEL_ID);
  static final Flag REVISION = new Flag(TgiFlags.REVISION);
  static final Flag PORT = new Flag(TgiFlags.PORT, TgiFlags.P);
  static final Flag HOSTNAME = new Flag(TgiFlags.HOSTNAME);
  static final Flag QUANTIZE = new Flag(TgiFlags.QUANTIZE);
  static final Flag MAX_INPUT = new Flag(TgiFlags.MAX_INPUT_LENGTH, TgiFlags.MAX_INPUT_TOKENS);
  static final Flag MAX_TOTAL = new Flag(TgiFlags.MAX_TOTAL_TOKENS);
  static final Flag DTYPE = new Flag(TgiFlags.DTYPE);
  static final Flag NUM_SHARD = new Flag(TgiFlags.NUM_SHARD);

  private TgiRenderer() {
  }

  @Override
  public String runtimeName() {
    return "tgi";
  }

  @Override
  public String containerName() {
    return "tgi";
  }

  @Override
  public int defaultPort() {
    return 80;
  }

  @Override
  public boolean usesModelInit() {
    return false;
  }

  @Override
  public String defaultHpaMetric() {
    return "tgi:queue_size";
  }

  @Override
  public String image(RuntimeInput in) {
    return RuntimeRenderer.pickImage(in, IMAGE);
  }

  @Override
  public int listenPort(RuntimeInput in) {
    return RuntimeRenderer.listenPortFrom(in, PORT, defaultPort());
  }

  @Override
  public List<String> args(RuntimeInput in) {
    ArgList args = new ArgList(in.extraArgs());
    ModelArgument.of(in.model()).addOption(args, MODEL_ID, REVISION);
    args.option(PORT, Integer.toString(in.configuredPort(defaultPort())));
    args.option(HOSTNAME, in.bindAddress());
    TgiConfig config = in.spec().tgi();
    if (config != null) {
      if (config.quantize() != null) {
        args.option(QUANTIZE, EnumValues.of(config.quantize()));
      }
      if (config.maxInputLength() != null) {
        args.option(MAX_INPUT, config.maxInputLength().toString());
      }
      if (config.maxTotalTokens() != null) {
        args.option(MAX_TOTAL, config.maxTotalTokens().toString());
      }
      if (config.dtype() != null) {
        args.option(DTYPE, EnumValues.of(config.dtype()));
      }
    }
    if (in.gpu().count() > 1) {
      args.option(NUM_SHARD, Integer.toString(in.gpu().count()));
    }
    args.extraArgs();
    return args.build();
  }

  @Override
  public List<EnvVar> runtimeEnv(RuntimeInput in) {
    TgiConfig config = in.spec().tgi();
    return RuntimeRenderer.secretEnv("HUGGING_FACE_HUB_TOKEN", config == null ? null : config.hfTokenSecretRef());
  }

  @Override
  public Probes probes(int port) {
    return Probes.http("/health", port);
  }
}
