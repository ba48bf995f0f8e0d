package dev.modelplane.router.request;

import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.RequestJson;
import java.util.List;
import java.util.function.Predicate;

/**
 * The parser of an API whose requests are one JSON object: the body must be JSON within the limits
 * ({@link RequestJson.Limits}) and carry what {@code valid} checks, else it is a 400 with {@code invalid} as its
 * message. The body is read as a token stream; no JSON tree is built.
 *
 * @param api the API the body belongs to
 * @param paths the path suffixes claimed
 * @param valid what the API requires of the top-level fields
 * @param invalid the message of the 400 when {@code valid} fails
 * @param requiresModel whether a missing {@code model} is a 400 too
 * @param errorShape the shape of the API's errors
 * @param runsModel whether the endpoint runs the model on the body (false for {@code /render}, which only applies
 *     the chat template: see {@link LlmRequestBody#LlmRequestBody(LlmRequestBody.Api, byte[], RequestJson.Fields,
 *     boolean)})
 */
record JsonApiParser(LlmRequestBody.Api api, List<String> paths, Predicate<RequestJson.Fields> valid, String invalid,
    boolean requiresModel, ErrorShape errorShape, boolean runsModel) implements RequestParser {

  @Override
  public LlmRequestBody parse(byte[] body, String contentType, RequestJson json) {
    RequestJson.Fields f;
    try {
      f = json.scan(body);
    } catch (RequestJson.Refused e) {
      throw new RouterException(ErrorCode.BAD_REQUEST, "error unmarshaling request body: " + e.getMessage());
    }
    if (!valid.test(f)) {
      throw new RouterException(ErrorCode.BAD_REQUEST, invalid);
    }
    return new LlmRequestBody(api, body, f, runsModel);
  }
}
