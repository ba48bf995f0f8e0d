package dev.modelplane.common.openai;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * An error body in the shape OpenAI's API documents and its SDKs read:
 * {@code {"error":{"message":"…","type":"…","param":null,"code":null}}}, where {@code param} and {@code code} are a
 * string or {@code null}. The HTTP status travels separately, as it does with OpenAI.
 *
 * @param message what went wrong, for people
 * @param type the error class, e.g. {@code invalid_request_error} (OpenAI) or {@code BadRequestError} (vLLM)
 * @param param the request field at fault, or {@code null}
 * @param code a machine-readable code such as {@code model_not_found} or {@code context_length_exceeded}, or
 *     {@code null}
 */
public record OpenAiError(String message, String type, String param, String code) {
  private static final JsonFactory JSON = new JsonFactory();

  /** Checks the required parts. */
  public OpenAiError {
    if (message == null || type == null) {
      throw new IllegalArgumentException("an OpenAI error needs a message and a type");
    }
  }

  /** The body, one line of JSON. */
  public String toJson() {
    StringWriter out = new StringWriter(96 + message.length());
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeObjectFieldStart("error");
      g.writeStringField("message", message);
      g.writeStringField("type", type);
      g.writeStringField("param", param);
      g.writeStringField("code", code);
      g.writeEndObject();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }
}
