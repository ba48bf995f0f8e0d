package dev.modelplane.router.request;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

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
