package dev.modelplane.operator.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NamesTest {
  @Test
  void shortNamesAreJoinedAsIs() {
    assertThat(Names.child("llama", "engine")).isEqualTo("llama-engine");
    assertThat(Names.child("llama", "")).isEqualTo("llama");
  }

  @Test
  void longNamesBecomeAStableHashPlusSuffix() {
    String base = "a".repeat(60);
    String name = Names.child(base, "engine");
    assertThat(name).hasSizeLessThanOrEqualTo(63).endsWith("-engine").matches("[0-9a-f]{8}-engine");
    assertThat(Names.child(base, "engine")).isEqualTo(name);
    assertThat(Names.child("b".repeat(60), "engine")).isNotEqualTo(name);
  }

  @Test
  void dnsLabelsAreSanitised() {
    assertThat(Names.dnsLabel("Meta-Llama/3.1_8B")).isEqualTo("meta-llama-3-1-8b");
    assertThat(Names.dnsLabel("--x--")).isEqualTo("x");
    assertThat(Names.dnsLabel("x".repeat(100))).hasSize(63).matches("[a-z0-9-]+");
    assertThat(Names.dnsLabel("///")).matches("x[0-9a-f]{8}");
  }
}
