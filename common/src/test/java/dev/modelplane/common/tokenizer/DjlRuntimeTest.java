package dev.modelplane.common.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DjlRuntimeTest {
  @Test
  void djlIsOfflineWithoutTrackingOnTheCpuLibrary() {
    DjlRuntime.prepare(Map.of());
    assertThat(System.getProperty("ai.djl.offline")).isEqualTo("true");
    assertThat(System.getProperty("OPT_OUT_TRACKING")).isEqualTo("true");
    assertThat(System.getProperty("RUST_FLAVOR")).isEqualTo("cpu");
    assertThat(System.getProperty("DJL_CACHE_DIR")).isNotBlank();
    assertThat(ai.djl.util.Utils.isOfflineMode()).isTrue();
  }

  @Test
  void anEnvironmentThatWouldPutDjlOnlineIsRefused() {
    assertThatThrownBy(() -> DjlRuntime.prepare(Map.of("DJL_OFFLINE", "false")))
        .isInstanceOf(TokenizerException.class)
        .hasMessage("the environment sets DJL_OFFLINE=false, which would let the tokenizer library reach the "
            + "network; unset it or set it to true");
    assertThatThrownBy(() -> DjlRuntime.prepare(Map.of("OPT_OUT_TRACKING", "0")))
        .isInstanceOf(TokenizerException.class).hasMessageContaining("OPT_OUT_TRACKING=0");
    DjlRuntime.prepare(Map.of("DJL_OFFLINE", "TRUE", "OPT_OUT_TRACKING", "true"));
  }
}
