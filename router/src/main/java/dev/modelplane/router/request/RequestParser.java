package dev.modelplane.router.request;

import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.RequestJson;
import java.util.List;

/**
 * Reads the bodies of one API's requests: those whose path ends with one of its claimed suffixes
 * ({@link RequestParsers} picks the longest claim that matches). A parser refuses, with a 400, what its API would
 * refuse; what it extracts (model, stream, the prompt prefix scorers hash) is what the request is scheduled on.
 */
public interface RequestParser {
  /** The path suffixes claimed, without a leading slash ({@code chat/completions}); none for the fallback. */
  List<String> paths();

  /**
   * The body read.
   *
   * @param contentType the request's {@code content-type}, {@code null} when absent
   * @throws RouterException 400 when the body is not a request of this API
   */
  LlmRequestBody parse(byte[] body, String contentType, RequestJson json);

  /** Whether a request without a string {@code model} is refused (400); otherwise its model is "". */
  boolean requiresModel();

  /** The shape of the errors this API's clients read. */
  ErrorShape errorShape();
}
