package dev.modelplane.common.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OpenAiErrorTest {
  @Test
  void writesOpenAisShapeWithNullsKept() {
    assertThat(new OpenAiError("The request body is not valid JSON.", "invalid_request_error", null, null).toJson())
        .isEqualTo("{\"error\":{\"message\":\"The request body is not valid JSON.\",\"type\":\"invalid_request_error\","
            + "\"param\":null,\"code\":null}}");
  }

  @Test
  void writesParamAndCodeAsStringsAndEscapes() {
    assertThat(new OpenAiError("The model `a\"b` does not exist.\n", "NotFoundError", "model", "model_not_found")
        .toJson()).isEqualTo("{\"error\":{\"message\":\"The model `a\\\"b` does not exist.\\n\","
            + "\"type\":\"NotFoundError\",\"param\":\"model\",\"code\":\"model_not_found\"}}");
  }

  @Test
  void messageAndTypeAreRequired() {
    assertThatThrownBy(() -> new OpenAiError(null, "t", null, null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OpenAiError("m", null, null, null)).isInstanceOf(IllegalArgumentException.class);
  }
}
