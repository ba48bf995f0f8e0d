package dev.modelplane.common.servers;

/**
 * The simulator's own flags, those vLLM does not have, spelled once for the simulator that takes them and the dev
 * cluster that writes them when it stands a simulator in for a model server. The flags it shares with vLLM are
 * {@link VllmFlags}.
 */
public final class SimulatorFlags {
  public static final String ACCEPT_ANY_MODEL = "--accept-any-model";
  public static final String ENABLE_KVCACHE = "--enable-kvcache";
  public static final String GPU = "--gpu";
  /** The seed of the block hashes, what {@code PYTHONHASHSEED} is to vLLM. */
  public static final String HASH_SEED = "--hash-seed";
  public static final String MODEL_CONFIG = "--model-config";
  public static final String PRESET = "--preset";

  private SimulatorFlags() {
  }
}
