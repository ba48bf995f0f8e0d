package dev.modelplane.router.gatewayapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Hostname matching and the intersection of listener and route hostnames. */
class HostnamesTest {

  @Test
  void wildcardCoversOneOrMoreLabels() {
    assertThat(Hostnames.matches("*.example.com", "a.example.com")).isTrue();
    assertThat(Hostnames.matches("*.example.com", "a.b.example.com")).isTrue();
    assertThat(Hostnames.matches("*.example.com", "example.com")).isFalse();
    assertThat(Hostnames.matches(null, "anything")).isTrue();
  }

  @Test
  void exactOutranksWildcardAndLongerWildcardOutranksShorter() {
    assertThat(Hostnames.specificity("a.example.com", "a.example.com"))
        .isGreaterThan(Hostnames.specificity("*.example.com", "a.example.com"));
    assertThat(Hostnames.specificity("x.com", "x.com"))
        .as("any exact name beats any wildcard, however long")
        .isGreaterThan(Hostnames.specificity("*.very.long.domain.example.com", "a.very.long.domain.example.com"));
    assertThat(Hostnames.specificity("*.b.example.com", "a.b.example.com"))
        .isGreaterThan(Hostnames.specificity("*.example.com", "a.b.example.com"));
    assertThat(Hostnames.specificity("*.example.com", "a.example.com")).isGreaterThan(Hostnames.ANY);
    assertThat(Hostnames.specificity("b.example.com", "a.example.com")).isEqualTo(Hostnames.NONE);
  }

  @Test
  void intersection() {
    assertThat(Hostnames.intersect(null, List.of())).isEmpty();
    assertThat(Hostnames.intersect("*.example.com", List.of())).containsExactly("*.example.com");
    assertThat(Hostnames.intersect(null, List.of("a.com"))).containsExactly("a.com");
    assertThat(Hostnames.intersect("*.example.com", List.of("a.example.com", "b.other.com")))
        .containsExactly("a.example.com");
    assertThat(Hostnames.intersect("a.example.com", List.of("*.example.com"))).containsExactly("a.example.com");
    assertThat(Hostnames.intersect("*.example.com", List.of("*.a.example.com"))).containsExactly("*.a.example.com");
    assertThat(Hostnames.intersect("*.a.example.com", List.of("*.example.com"))).containsExactly("*.a.example.com");
    assertThat(Hostnames.intersect("a.example.com", List.of("b.example.com"))).isNull();
    assertThat(Hostnames.intersect("*.example.com", List.of("example.com"))).isNull();
  }
}
