package dev.modelplane.router.request;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * The shape of the error bodies the router answers, chosen by the API of the request path
 * ({@link RequestParsers#errorShape}): the SDKs of each API read only their own.
 */
public enum ErrorShape {
  /** {@code {"error":{"message":…,"type":…,"param":null,"code":null}}} ({@link OpenAiErrors}). */
  OPENAI,
  /** Anthropic's {@code {"type":"error","error":{"type":…,"message":…}}}, with {@link ErrorCode#anthropicType}. */
  ANTHROPIC;

  private static final JsonFactory JSON = new JsonFactory();

  /** The error body for {@code code} and a message safe to show the client. */
  public String body(ErrorCode code, String message) {
    if (this == OPENAI) {
      return OpenAiErrors.body(code, message);
    }
    StringWriter out = new StringWriter(64 + message.length());
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("type", "error");
      g.writeObjectFieldStart("error");
      g.writeStringField("type", code.anthropicType());
      g.writeStringField("message", message);
      g.writeEndObject();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  /**
   * The server-sent event that ends a stream the router cuts short: {@code data: <body>} for OpenAI's streams,
   * Anthropic's {@code event: error} for its own.
   */
  public String streamEvent(ErrorCode code, String message) {
    return (this == ANTHROPIC ? "event: error\n" : "") + "data: " + body(code, message) + "\n\n";
  }
}
