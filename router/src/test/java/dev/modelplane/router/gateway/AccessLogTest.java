package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the access log writes of client input. */
class AccessLogTest {
  @Test
  void modelNamesAreCutToABoundedLengthWithTheirLengthNoted() {
    assertThat(AccessLog.clip(null)).isEqualTo("-");
    String longest = "m".repeat(AccessLog.MAX_MODEL_CHARS);
    assertThat(AccessLog.clip(longest)).isEqualTo(longest);
    String huge = "x".repeat(8 * 1024 * 1024);
    assertThat(AccessLog.clip(huge)).isEqualTo("x".repeat(AccessLog.MAX_MODEL_CHARS) + "...(8388608 chars)");
    // a surrogate pair is never cut in half
    String pairs = "a" + "\uD83D\uDE00".repeat(AccessLog.MAX_MODEL_CHARS);
    assertThat(AccessLog.clip(pairs))
        .startsWith("a" + "\uD83D\uDE00".repeat(AccessLog.MAX_MODEL_CHARS / 2 - 1) + "...(");
  }
}
