package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.common.servers.LlamaServerFlags;
import dev.modelplane.common.servers.SglangFlags;
import java.util.List;
import java.util.Locale;

/** What a model server serves: chat (and completions), embeddings or reranking. */
public final class ServingModes {
  private ServingModes() {
  }

  /** The resolved mode. */
  public enum Mode {
    CHAT("chat"), EMBEDDING("embedding"), RERANK("rerank");

    private final String value;

    Mode(String value) {
      this.value = value;
    }

    /** The spelling of {@code spec.mode} and {@code status.mode}. */
    public String value() {
      return value;
    }
  }

  /**
   * The declared mode when there is one; otherwise rerank or embedding when the extra flags already ask for it
   * ({@code --reranking}, {@code --embedding}, {@code --is-embedding}), else from the endpoint path; else chat.
   */
  public static Mode resolve(Mode declared, List<String> extraArgs, String endpointPath) {
    if (declared != null) {
      return declared;
    }
    if (ArgList.names(extraArgs, LlamaServerFlags.RERANKING, LlamaServerFlags.RERANK)) {
      return Mode.RERANK;
    }
    if (ArgList.names(extraArgs, LlamaServerFlags.EMBEDDING, LlamaServerFlags.EMBEDDINGS,
        SglangFlags.IS_EMBEDDING)) {
      return Mode.EMBEDDING;
    }
    String path = endpointPath == null ? "" : endpointPath.toLowerCase(Locale.ROOT);
    if (path.contains("rerank")) {
      return Mode.RERANK;
    }
    if (path.contains("embedding")) {
      return Mode.EMBEDDING;
    }
    return Mode.CHAT;
  }
}
