package dev.modelplane.router.request;

import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.RequestJson;
import java.util.List;

/**
 * llm-d's {@code passthrough-parser}: a request no other parser claims (or any method but POST) is forwarded as
 * received and scheduled by load alone, never refused for its body. Its {@code model} is read when the body is a
 * JSON object within the limits, else it is "". Prefix scorers see an empty prompt.
 *
 * @param paths the path suffixes claimed: none for the fallback, or an API's endpoints that gain nothing from being
 *     read (Anthropic's {@code messages/count_tokens})
 * @param errorShape the shape of the errors of those paths
 */
record PassthroughParser(List<String> paths, ErrorShape errorShape) implements RequestParser {
  /** The fallback: claims nothing, answers errors in OpenAI's shape. */
  static final PassthroughParser FALLBACK = new PassthroughParser(List.of(), ErrorShape.OPENAI);

  @Override
  public LlmRequestBody parse(byte[] body, String contentType, RequestJson json) {
    return new LlmRequestBody(LlmRequestBody.Api.PASSTHROUGH, body, bestEffort(body, json));
  }

  @Override
  public boolean requiresModel() {
    return false;
  }

  /** The fields of a body that is a JSON object within the limits; only "no model" for anything else. */
  static RequestJson.Fields bestEffort(byte[] body, RequestJson json) {
    try {
      return json.scan(body);
    } catch (RequestJson.Refused e) {
      return RequestJson.Fields.opaque(null);
    }
  }
}
