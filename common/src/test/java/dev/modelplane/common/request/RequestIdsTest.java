package dev.modelplane.common.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestIdsTest {
  @Test
  void newIdsAreDistinctVersion4Uuids() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      String id = RequestIds.newId();
      UUID uuid = UUID.fromString(id);
      assertThat(uuid.version()).isEqualTo(4);
      assertThat(uuid.variant()).isEqualTo(2);
      assertThat(uuid.toString()).isEqualTo(id);
      ids.add(id);
    }
    assertThat(ids).hasSize(1000);
  }

  @Test
  void aClientsIdIsKept() {
    assertThat(RequestIds.orNew("abc-1")).isEqualTo("abc-1");
    assertThat(RequestIds.orNew("")).hasSize(36);
    assertThat(RequestIds.orNew(null)).hasSize(36);
  }

  @Test
  void prefixedIdsFollowOpenAiAndRepeatWithASeed() {
    String a = RequestIds.prefixed("chatcmpl-", new Random(42));
    assertThat(a).matches("chatcmpl-[0-9a-f]{16}");
    assertThat(RequestIds.prefixed("chatcmpl-", new Random(42))).isEqualTo(a);
    assertThat(RequestIds.prefixed("cmpl-", new Random(7))).matches("cmpl-[0-9a-f]{16}");
  }
}
