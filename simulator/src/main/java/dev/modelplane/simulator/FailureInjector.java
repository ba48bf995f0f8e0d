package dev.modelplane.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Fails a configured percentage of requests with the errors (and HTTP codes) llm-d-inference-sim injects. */
final class FailureInjector {
  /** The failure types, named as on the peer's command line. */
  enum Kind {
    RATE_LIMIT("rate_limit", 429), INVALID_API_KEY("invalid_api_key", 401), CONTEXT_LENGTH("context_length", 400),
    SERVER_ERROR("server_error", 503), INVALID_REQUEST("invalid_request", 400),
    MODEL_NOT_FOUND("model_not_found", 404);

    final String flag;
    final int status;

    Kind(String flag, int status) {
      this.flag = flag;
      this.status = status;
    }

    static Kind byName(String name) {
      for (Kind k : values()) {
        if (k.flag.equals(name.trim())) {
          return k;
        }
      }
      return null;
    }

    ApiError error(String model) {
      return switch (this) {
        case RATE_LIMIT -> new ApiError(429, "Rate limit reached for " + model
            + " in organization org-xxx on requests per min (RPM): Limit 3, Used 3, Requested 1.", null,
            "rate_limit_exceeded");
        case INVALID_API_KEY -> new ApiError(401, "Incorrect API key provided.", null, "invalid_api_key");
        case CONTEXT_LENGTH -> new ApiError(400, "This model's maximum context length is 4096 tokens. However, "
            + "your messages resulted in 4500 tokens.", "messages", "context_length_exceeded");
        case SERVER_ERROR -> new ApiError(503, "The server is overloaded or not ready yet.", null);
        case INVALID_REQUEST -> new ApiError(400, "Invalid request: missing required parameter 'model'.", "model");
        case MODEL_NOT_FOUND -> ApiError.modelNotFound("The model '" + model + "-nonexistent' does not exist");
      };
    }
  }

  private final int ratePercent;
  private final List<Kind> kinds;
  private final String model;
  private final SplittableRandom random;

  FailureInjector(int ratePercent, List<String> types, String model, long seed) {
    this.ratePercent = ratePercent;
    List<Kind> k = new ArrayList<>();
    for (String t : types) {
      k.add(Kind.byName(t));
    }
    this.kinds = k.isEmpty() ? List.of(Kind.values()) : List.copyOf(k);
    this.model = model;
    this.random = new SplittableRandom(seed);
  }

  /** The error to answer with, or null to serve the request. */
  synchronized ApiError next() {
    if (ratePercent <= 0 || random.nextInt(100) >= ratePercent) {
      return null;
    }
    return kinds.get(random.nextInt(kinds.size())).error(model);
  }
}
