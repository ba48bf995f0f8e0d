package dev.modelplane.operator.prefixrouting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.common.picker.PickerConfigs;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PrecisePrefixSettingsTest {
  @ParameterizedTest
  @EnumSource(PickerConfigs.class)
  void noneOfTheShippedConfigurationsUsesTheScorer(PickerConfigs config) {
    assertThat(PrecisePrefixSettings.of(config.yaml())).isEmpty();
  }

  @Test
  void aScorerWithoutParametersHasTheRoutersDefaults() {
    assertThat(PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer}]")).contains(
        new PrecisePrefixSettings(16, "", true, 5557, 0, "tcp://*:5557", "kv@"));
    assertThat(PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer, parameters: "
        + "{tokenProcessorConfig: {hashSeed: null}}}]").orElseThrow().hashSeed()).isEmpty();
  }

  @Test
  void llmdsParameterNamesAreRead() {
    PrecisePrefixSettings s = PrecisePrefixSettings.of("""
        plugins:
        - type: queue-scorer
        - type: precise-prefix-cache-scorer
          parameters:
            tokenProcessorConfig: {blockSizeTokens: "64", hashSeed: 42}
            kvEventsConfig: {discoverPods: false, zmqEndpoint: "tcp://*:5560",
                             podDiscoveryConfig: {socketPort: 5556, replayPort: 5558}}
        """).orElseThrow();
    assertThat(s).isEqualTo(new PrecisePrefixSettings(64, "42", false, 5556, 5558, "tcp://*:5560", "kv@"));
    assertThat(s.centralPort()).isEqualTo(5560);
  }

  @Test
  void llmdsCurrentFormThePrecisePrefixCacheProducerIsReadAlike() {
    assertThat(PrecisePrefixSettings.of("""
        plugins:
        - type: precise-prefix-cache-producer
          parameters: {tokenProcessorConfig: {blockSize: 64}}
        - type: prefix-cache-scorer
          parameters: {prefixMatchInfoProducerName: precise-prefix-cache-producer}
        """)).contains(new PrecisePrefixSettings(64, "", true, 5557, 0, "tcp://*:5557", "kv@"));
    assertThatThrownBy(() -> PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-producer, parameters: "
        + "{tokenProcessorConfig: {blockSize: 0}}}]"))
        .hasMessage("precise-prefix-cache-producer: parameter 'blockSize' must be from 1 to 2147483647, got 0");
  }

  @Test
  void anEndpointServersCannotReachHasNoCentralPort() {
    assertThat(new PrecisePrefixSettings(16, "", false, 5557, 0, "ipc:///tmp/kv", "kv@").centralPort()).isEqualTo(-1);
    assertThat(new PrecisePrefixSettings(16, "", false, 5557, 0, "tcp://10.0.0.1:5557", "kv@").centralPort())
        .isEqualTo(-1);
    assertThat(new PrecisePrefixSettings(16, "", false, 5557, 0, "tcp://*:99999", "kv@").centralPort()).isEqualTo(-1);
  }

  @Test
  void valuesTheServersCannotUseAreRefusedNamingTheParameter() {
    assertThatThrownBy(() -> PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer, parameters: "
        + "{kvEventsConfig: {podDiscoveryConfig: {socketPort: 70000}}}}]"))
        .hasMessage("precise-prefix-cache-scorer: parameter 'socketPort' must be from 1 to 65535, got 70000");
    assertThatThrownBy(() -> PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer, parameters: "
        + "{tokenProcessorConfig: {blockSize: 0}}}]"))
        .hasMessage("precise-prefix-cache-scorer: parameter 'blockSize' must be from 1 to 2147483647, got 0");
    assertThatThrownBy(() -> PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer, parameters: "
        + "{kvEventsConfig: {discoverPods: maybe}}}]"))
        .hasMessage("precise-prefix-cache-scorer: kvEventsConfig.discoverPods must be true or false, got \"maybe\"");
    assertThatThrownBy(() -> PrecisePrefixSettings.of("plugins: [type: x")).hasMessageStartingWith(
        "the EndpointPickerConfig is not YAML: ");
  }

  @Test
  void aHashSeedPythonRefusesIsReportedBeforeEveryServerCrashLoops() {
    for (String seed : List.of("\"my-seed\"", "1.5", "-1", "4294967296", "{a: 1}")) {
      assertThatThrownBy(() -> PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer, parameters: "
          + "{tokenProcessorConfig: {hashSeed: " + seed + "}}}]")).as(seed)
          .hasMessageStartingWith("precise-prefix-cache-scorer: parameter 'hashSeed' must be a whole number from 0 "
              + "to 4294967295 (the servers' PYTHONHASHSEED, which Python refuses otherwise), got ");
    }
    assertThatThrownBy(() -> PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer, parameters: "
        + "{tokenProcessorConfig: {hashSeed: random}}}]")).hasMessage("precise-prefix-cache-scorer: parameter "
        + "'hashSeed' must be a whole number from 0 to 4294967295 (the servers' PYTHONHASHSEED, which Python refuses "
        + "otherwise; random gives each server process hashes of its own), got \"random\"");
    assertThat(PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer, parameters: "
        + "{tokenProcessorConfig: {hashSeed: 4294967295}}}]").orElseThrow().hashSeed()).isEqualTo("4294967295");
    assertThat(PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer, parameters: "
        + "{tokenProcessorConfig: {hashSeed: \"0\"}}}]").orElseThrow().hashSeed()).isEqualTo("0");
  }

  @Test
  void blockSizeAndItsAliasMustAgreeAsTheRouterRequires() {
    assertThatThrownBy(() -> PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer, parameters: "
        + "{tokenProcessorConfig: {blockSize: 16, blockSizeTokens: 32}}}]")).hasMessage("precise-prefix-cache-scorer"
        + ": tokenProcessorConfig.blockSize 16 and its alias blockSizeTokens 32 differ, and the router refuses such "
        + "a configuration; give one");
    assertThat(PrecisePrefixSettings.of("plugins: [{type: precise-prefix-cache-scorer, parameters: "
        + "{tokenProcessorConfig: {blockSize: 32, blockSizeTokens: \"32\"}}}]").orElseThrow().blockSize())
        .isEqualTo(32);
  }

  @Test
  void theServersBindTheSocketAndTheReplaySocketWhenOneIsSet() {
    assertThat(new PrecisePrefixSettings(16, "", true, 5557, 0, "tcp://*:5557", "kv@").serverPorts()).containsExactly(5557);
    assertThat(new PrecisePrefixSettings(16, "", true, 5557, 5558, "tcp://*:5557", "kv@").serverPorts())
        .containsExactly(5557, 5558);
  }
}
