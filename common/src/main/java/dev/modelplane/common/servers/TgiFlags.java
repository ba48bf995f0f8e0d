package dev.modelplane.common.servers;

/**
 * Flags of Hugging Face Text Generation Inference's launcher ({@code text-generation-launcher}), spelled once for the
 * operator's TGI renderer and the dev cluster's simulator plan, which reads them back from a pod's command line. A
 * constant is named after its flag: {@code --num-shard} is {@code NUM_SHARD}, the short {@code -p} is {@code P}.
 */
public final class TgiFlags {
  public static final String DTYPE = "--dtype";
  public static final String H = "-H";
  public static final String HOSTNAME = "--hostname";
  public static final String LORA_ADAPTERS = "--lora-adapters";
  public static final String MAX_BATCH_SIZE = "--max-batch-size";
  public static final String MAX_INPUT_LENGTH = "--max-input-length";
  public static final String MAX_INPUT_TOKENS = "--max-input-tokens";
  public static final String MAX_TOTAL_TOKENS = "--max-total-tokens";
  public static final String MODEL_ID = "--model-id";
  public static final String NUM_SHARD = "--num-shard";
  public static final String P = "-p";
  public static final String PORT = "--port";
  public static final String QUANTIZE = "--quantize";
  public static final String REVISION = "--revision";

  private TgiFlags() {
  }
}
