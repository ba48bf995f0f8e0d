package dev.modelplane.operator.runtime;

import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import java.util.List;
import java.util.Locale;

/** What an InferenceService serves: chat (and completions), embeddings or reranking. */
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
   * {@code spec.mode} when set; otherwise rerank or embedding when {@code extraArgs} already asks for it
   * ({@code --reranking}, {@code --embedding}, {@code --is-embedding}), else from {@code endpoint.path}; else chat.
   */
  public static Mode resolve(InferenceServiceSpec spec) {
    if (spec.mode() != null) {
      return switch (spec.mode()) {
        case CHAT -> Mode.CHAT;
        case EMBEDDING -> Mode.EMBEDDING;
        case RERANK -> Mode.RERANK;
      };
    }
    List<String> extra = spec.extraArgs();
    if (ArgList.names(extra, "--reranking", "--rerank")) {
      return Mode.RERANK;
    }
    if (ArgList.names(extra, "--embedding", "--embeddings", "--is-embedding")) {
      return Mode.EMBEDDING;
    }
    String path = spec.endpoint() == null || spec.endpoint().path() == null ? ""
        : spec.endpoint().path().toLowerCase(Locale.ROOT);
    if (path.contains("rerank")) {
      return Mode.RERANK;
    }
    if (path.contains("embedding")) {
      return Mode.EMBEDDING;
    }
    return Mode.CHAT;
  }
}
