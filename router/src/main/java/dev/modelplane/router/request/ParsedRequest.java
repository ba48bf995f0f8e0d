package dev.modelplane.router.request;

import dev.modelplane.common.request.RequestIds;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.RequestJson;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the director reads from a request before admitting it: the body, the model names (after the
 * {@code x-gateway-model-name-rewrite} header or the pool's InferenceModelRewrites), the objective's priority, the fairness id and the request id.
 *
 * @param body the parsed body; {@code null} when it was not parsed (an external picker reads it instead)
 * @param incomingModel the model the client asked for ("" when unknown)
 * @param targetModel the model sent to the model server
 * @param priority the InferenceObjective's priority (0 without one)
 * @param fairnessId the flow the request is queued under
 * @param requestId {@code x-request-id}, generated when the client sent none
 * @param forwardBody the body to forward (re-serialised when the model was rewritten)
 * @param rewritten whether {@code forwardBody} differs from the received body
 */
record ParsedRequest(LlmRequestBody body, String incomingModel, String targetModel, int priority,
    String fairnessId, String requestId, byte[] forwardBody, boolean rewritten) {

  /**
   * Parses the body with the parser of its path and method ({@link RequestParsers}); one its API refuses is a
   * {@link RouterException} (400). A model rewrite applies to a JSON body that names a model; any other body is
   * forwarded as received, to its own model.
   */
  static ParsedRequest read(RequestInput input, RequestJson json) {
    RequestParser parser = parser(input);
    LlmRequestBody body = parser.parse(input.body(), input.headers().get("content-type"), json);
    String incoming = RequestParsers.model(parser, body);
    String target = !body.fields().object() || body.fields().model() == null ? incoming : target(input, incoming);
    byte[] forward = input.body();
    boolean rewritten = false;
    if (!target.equals(incoming)) {
      forward = OpenAiRequestParser.withModel(body, target);
      rewritten = true;
    }
    return new ParsedRequest(body, incoming, target, input.pool().priorityOf(input.headers().get(RequestDirector.OBJECTIVE)),
        fairnessId(input), requestId(input), forward, rewritten);
  }

  /**
   * The model the request goes on with: the one the {@code x-gateway-model-name-rewrite} header names, else the one
   * the pool's InferenceModelRewrites pick (by weight), else the one asked for. The header wins over the pool's rules
   * as an instruction for this one request (GIE's order; llm-d applies the pool's rules after it).
   */
  private static String target(RequestInput input, String incoming) {
    String rewrite = input.headers().get(RequestDirector.MODEL_REWRITE);
    if (rewrite != null && !rewrite.isEmpty()) {
      return rewrite;
    }
    String byPool = input.pool().rewrites().rewrite(incoming, ThreadLocalRandom.current());
    return byPool == null ? incoming : byPool;
  }

  /**
   * Reads what it can without rejecting anything: for an external picker, which answers malformed requests itself.
   * The model names (for metrics) are empty when the body cannot be read.
   */
  static ParsedRequest readLeniently(RequestInput input, RequestJson json) {
    String model = "";
    LlmRequestBody body = null;
    try {
      RequestParser parser = parser(input);
      body = parser.parse(input.body(), input.headers().get("content-type"), json);
      model = RequestParsers.model(parser, body);
    } catch (RouterException e) {
      // the picker decides what to answer
    }
    String rewrite = input.headers().get(RequestDirector.MODEL_REWRITE);
    String target = rewrite == null || rewrite.isEmpty() ? model : rewrite;
    return new ParsedRequest(body, model, target, input.pool().priorityOf(input.headers().get(RequestDirector.OBJECTIVE)),
        fairnessId(input), requestId(input), input.body(), false);
  }

  private static RequestParser parser(RequestInput input) {
    return RequestParsers.defaults().forRequest(input.headers().get(":method"), input.path());
  }

  private static String fairnessId(RequestInput input) {
    String fairness = input.headers().get(RequestDirector.FAIRNESS_ID);
    return fairness == null || fairness.isEmpty() ? RequestDirector.DEFAULT_FAIRNESS_ID : fairness;
  }

  private static String requestId(RequestInput input) {
    return RequestIds.orNew(input.headers().get(RequestDirector.REQUEST_ID));
  }
}
