package dev.modelplane.operator.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {
  private static final Instant T1 = Instant.parse("2026-11-01T10:00:00.123Z");
  private static final Instant T2 = Instant.parse("2026-11-01T10:05:00Z");

  @Test
  void transitionTimeMovesOnlyWhenTheStatusChanges() {
    List<Condition> first = Conditions.set(List.of(), "Available", "False", "Creating", "0/1 ready", 1, T1);
    assertThat(first).singleElement().satisfies(c -> {
      assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-01T10:00:00Z");
      assertThat(c.getObservedGeneration()).isEqualTo(1L);
    });
    List<Condition> sameStatus = Conditions.set(first, "Available", "False", "Creating", "0/2 ready", 2, T2);
    assertThat(sameStatus).singleElement().satisfies(c -> {
      assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-01T10:00:00Z");
      assertThat(c.getMessage()).isEqualTo("0/2 ready");
      assertThat(c.getObservedGeneration()).isEqualTo(2L);
    });
    List<Condition> flipped = Conditions.set(sameStatus, "Available", "True", "Ready", "", 2, T2);
    assertThat(flipped).singleElement().satisfies(c ->
        assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-01T10:05:00Z"));
  }

  @Test
  void otherTypesAreKeptInOrderAndCanBeRemoved() {
    List<Condition> list = Conditions.set(List.of(), "A", "True", "R", "m", 1, T1);
    list = Conditions.set(list, "B", "False", "R", "m", 1, T1);
    list = Conditions.set(list, "A", "False", "R2", "m", 1, T2);
    assertThat(list).extracting(Condition::getType).containsExactly("A", "B");
    assertThat(Conditions.isTrue(list, "A")).isFalse();
    assertThat(Conditions.find(list, "B").getStatus()).isEqualTo("False");
    assertThat(Conditions.remove(list, "A")).extracting(Condition::getType).containsExactly("B");
    assertThat(Conditions.find(list, "C")).isNull();
  }
}
