package dev.modelplane.router.proxy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.request.ErrorCode;

/** OpenAI-style error bodies: {@code {"error":{"message":…,"type":…,"param":null,"code":…}}}. */
public final class OpenAiErrors {
  private static final ObjectMapper JSON = new ObjectMapper();

  private OpenAiErrors() {
  }

  public static String body(ErrorCode code, String message) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode error = root.putObject("error");
    error.put("message", message);
    error.put("type", code.openAiType());
    error.putNull("param");
    error.put("code", code.httpStatus());
    return root.toString();
  }
}
