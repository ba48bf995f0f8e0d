package dev.modelplane.router.prefix.precise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.prefix.ApproxPrefixCacheProducer;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** llm-d's parameters as a config file gives them, and the error a user sees for each bad value. */
class PrecisePrefixConfigTest {
  private final ConfigLoader loader = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null);
  private SchedulingSetup setup;

  @AfterEach
  void close() {
    if (setup != null) {
      setup.plugins().values().forEach(p -> {
        if (p instanceof AutoCloseable c) {
          try {
            c.close();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      });
    }
  }

  private PrecisePrefixCacheScorer load(String parameters) {
    setup = loader.load("plugins: [{type: precise-prefix-cache-scorer, parameters: " + parameters + "}]");
    return (PrecisePrefixCacheScorer) setup.plugins().get("precise-prefix-cache-scorer");
  }

  @Test
  void withoutParametersTheDefaultsApplyAndTheApproximateProducerIsAdded() {
    PrecisePrefixCacheScorer scorer = load("{}");
    assertThat(scorer.config()).isEqualTo(PrecisePrefixConfig.DEFAULT);
    assertThat(PrecisePrefixConfig.DEFAULT).isEqualTo(new PrecisePrefixConfig(16, "", "tcp://*:5557", "kv@", true,
        5557, 0, 500_000, 10, false, Duration.ofSeconds(2)));
    assertThat(setup.prefixProducer()).isInstanceOf(ApproxPrefixCacheProducer.class);
    assertThat(setup.lifecycle().prepareData()).contains(setup.prefixProducer());
    assertThat(setup.lifecycle().preRequest()).contains(scorer);
    assertThat(setup.scheduler().profiles().get("default").scorers()).extracting(w -> w.scorer().type())
        .containsExactly("precise-prefix-cache-scorer");
  }

  @Test
  void llmDsSplitFormIsTheProducerAndTheGenericScorer() {
    setup = loader.load("""
        plugins:
        - type: precise-prefix-cache-producer
          parameters: {tokenProcessorConfig: {blockSize: 64}}
        - type: prefix-cache-scorer
          parameters: {prefixMatchInfoProducerName: precise-prefix-cache-producer}
        schedulingProfiles:
        - name: default
          plugins: [{pluginRef: prefix-cache-scorer, weight: 2}]
        """);
    PrecisePrefixCacheProducer producer = (PrecisePrefixCacheProducer) setup.plugins()
        .get("precise-prefix-cache-producer");
    assertThat(producer.config().blockSize()).isEqualTo(64);
    assertThat(setup.prefixProducer()).as("the fallback's producer").isInstanceOf(ApproxPrefixCacheProducer.class);
    assertThat(setup.lifecycle().prepareData()).endsWith(producer);
    assertThat(setup.lifecycle().preRequest()).contains(producer);
    assertThat(setup.scheduler().profiles().get("default").scorers()).extracting(w -> w.scorer().type())
        .containsExactly("prefix-cache-scorer");
  }

  @Test
  void aProducerNameThatNamesNoProducerIsAnError() {
    assertThatThrownBy(() -> loader.load("""
        plugins:
        - type: prefix-cache-scorer
          parameters: {prefixMatchInfoProducerName: precise-prefix-cache-producer}
        """)).hasMessage("plugin 'prefix-cache-scorer': prefixMatchInfoProducerName 'precise-prefix-cache-producer' "
        + "names no plugin; it must name a declared approx-prefix-cache-producer or precise-prefix-cache-producer");
    assertThatThrownBy(() -> loader.load("""
        plugins:
        - type: queue-scorer
        - type: prefix-cache-scorer
          parameters: {prefixMatchInfoProducerName: queue-scorer}
        """)).hasMessage("plugin 'prefix-cache-scorer': prefixMatchInfoProducerName 'queue-scorer' names a "
        + "queue-scorer; it must name a declared approx-prefix-cache-producer or precise-prefix-cache-producer");
  }

  @Test
  void llmDsParameterNamesAreRead() {
    PrecisePrefixCacheScorer scorer = load("""
        {tokenProcessorConfig: {blockSize: 64, hashSeed: 42},
         kvEventsConfig: {zmqEndpoint: "tcp://*:6000", topicFilter: "", concurrency: 8, engineType: vllm,
                          discoverPods: false,
                          podDiscoveryConfig: {socketPort: 5556, replayPort: 5558, podLabelSelector: "a=b",
                                               podNamespace: serving}},
         indexerConfig: {kvBlockIndexConfig: {inMemoryConfig: {size: 1000, podCacheSize: 3}, enableMetrics: true},
                         prefixStoreConfig: {cacheSize: 10}},
         speculativeIndexing: true, speculativeTTL: 500ms}""");
    assertThat(scorer.config()).isEqualTo(new PrecisePrefixConfig(64, "42", "tcp://*:6000", "", false, 5556, 5558,
        1000, 3, true, Duration.ofMillis(500)));
    assertThat(load("{tokenProcessorConfig: {blockSizeTokens: 32}}").config().blockSize()).isEqualTo(32);
    assertThat(load("{tokenProcessorConfig: {blockSize: 32, blockSizeTokens: 32}}").config().blockSize())
        .isEqualTo(32);
    assertThat(load("{kvEventsConfig: {zmqEndpoint: \"ipc:///tmp/kv\", discoverPods: false}}").config()
        .zmqEndpoint()).isEqualTo("ipc:///tmp/kv");
  }

  static Stream<Arguments> badParameters() {
    return Stream.of(
        arguments("{tokenProcessorConfig: 16}",
            "parameter 'tokenProcessorConfig' must be an object"),
        arguments("{tokenProcessorConfig: {blockSize: 0}}",
            "tokenProcessorConfig: parameter 'blockSize' must be at least 1, got 0"),
        arguments("{tokenProcessorConfig: {blockSize: big}}",
            "tokenProcessorConfig: parameter 'blockSize' must be an integer, got "
            + "\"big\""),
        arguments("{tokenProcessorConfig: {blockSizeTokens: -4}}",
            "tokenProcessorConfig: parameter 'blockSizeTokens' must be at least 1, "
            + "got -4"),
        arguments("{tokenProcessorConfig: {blockSize: 16, blockSizeTokens: 64}}",
            "tokenProcessorConfig: blockSize (16) and blockSizeTokens (64) name the "
            + "same setting and must agree"),
        arguments("{tokenProcessorConfig: {hashSeed: [4, 2]}}",
            "tokenProcessorConfig: parameter 'hashSeed' must be a string, got [4,2]"),
        arguments("{kvEventsConfig: []}",
            "parameter 'kvEventsConfig' must be an object"),
        arguments("{kvEventsConfig: {zmqEndpoint: \"localhost:5557\"}}",
            "kvEventsConfig: zmqEndpoint \"localhost:5557\" is not a ZeroMQ address "
            + "like tcp://*:5557 or ipc:///path"),
        arguments("{kvEventsConfig: {zmqEndpoint: \"tcp://*:99999\"}}",
            "kvEventsConfig: zmqEndpoint \"tcp://*:99999\" is not a ZeroMQ address "
            + "like tcp://*:5557 or ipc:///path"),
        arguments("{kvEventsConfig: {zmqEndpoint: \"tcp://0.0.0.0:5557\", discoverPods: false}}",
            "kvEventsConfig: with discoverPods false the router binds zmqEndpoint "
            + "and the servers connect to it, so it must be an address to bind such "
            + "as tcp://*:5557, not \"tcp://0.0.0.0:5557\""),
        arguments("{kvEventsConfig: {discoverPods: sometimes}}",
            "kvEventsConfig: parameter 'discoverPods' must be true or false, got "
            + "\"sometimes\""),
        arguments("{kvEventsConfig: {topicFilter: {a: 1}}}",
            "kvEventsConfig: parameter 'topicFilter' must be a string, got {\"a\":1}"),
        arguments("{kvEventsConfig: {concurrency: 0}}",
            "kvEventsConfig: parameter 'concurrency' must be at least 1, got 0"),
        arguments("{kvEventsConfig: {engineType: sglang}}",
            "kvEventsConfig: engineType \"sglang\" is not supported; the router reads "
            + "vLLM's events (engineType: vllm)"),
        arguments("{kvEventsConfig: {podDiscoveryConfig: 5556}}",
            "kvEventsConfig: parameter 'podDiscoveryConfig' must be an object"),
        arguments("{kvEventsConfig: {podDiscoveryConfig: {socketPort: 0}}}",
            "kvEventsConfig.podDiscoveryConfig: parameter 'socketPort' must be a "
            + "port from 1 to 65535, got 0"),
        arguments("{kvEventsConfig: {podDiscoveryConfig: {socketPort: 70000}}}",
            "kvEventsConfig.podDiscoveryConfig: parameter 'socketPort' must be a "
            + "port from 1 to 65535, got 70000"),
        arguments("{kvEventsConfig: {podDiscoveryConfig: {replayPort: -1}}}",
            "kvEventsConfig.podDiscoveryConfig: parameter 'replayPort' must be a "
            + "port from 0 to 65535, got -1"),
        arguments("{kvEventsConfig: {podDiscoveryConfig: {replayPort: 5557}}}",
            "kvEventsConfig.podDiscoveryConfig: replayPort must differ from "
            + "socketPort (5557): a server's replay socket has its own port"),
        arguments("{kvEventsConfig: {podDiscoveryConfig: {podLabelSelector: [a]}}}",
            "kvEventsConfig.podDiscoveryConfig: parameter 'podLabelSelector' must "
            + "be a string, got [\"a\"]"),
        arguments("{indexerConfig: {kvBlockIndexConfig: {redisConfig: {address: \"redis:6379\"}}}}",
            "indexerConfig.kvBlockIndexConfig: redisConfig is not supported; the "
            + "index is kept in the router's memory (inMemoryConfig)"),
        arguments("{indexerConfig: {kvBlockIndexConfig: {inMemoryConfig: {size: 0}}}}",
            "indexerConfig.kvBlockIndexConfig.inMemoryConfig: parameter 'size' must "
            + "be at least 1, got 0"),
        arguments("{indexerConfig: {kvBlockIndexConfig: {inMemoryConfig: {size: 1e12}}}}",
            "indexerConfig.kvBlockIndexConfig.inMemoryConfig: parameter 'size' must "
            + "be an integer, got 1.0E12"),
        arguments("{indexerConfig: {kvBlockIndexConfig: {inMemoryConfig: {podCacheSize: -2}}}}",
            "indexerConfig.kvBlockIndexConfig.inMemoryConfig: parameter "
            + "'podCacheSize' must be at least 1, got -2"),
        arguments("{indexerConfig: {kvBlockIndexConfig: {inMemoryConfig: 7}}}",
            "indexerConfig.kvBlockIndexConfig: parameter 'inMemoryConfig' must be "
            + "an object"),
        arguments("{speculativeIndexing: perhaps}",
            "parameter 'speculativeIndexing' must be true or false, got \"perhaps\""),
        arguments("{speculativeTTL: 0s}",
            "parameter 'speculativeTTL' must be longer than 0s"),
        arguments("{speculativeTTL: -2s}",
            "parameter 'speculativeTTL': duration \"-2s\" must not be negative"));
  }

  @ParameterizedTest
  @MethodSource("badParameters")
  void aBadValueIsAnErrorNamingThePluginAndTheParameter(String parameters, String message) {
    assertThatThrownBy(() -> load(parameters))
        .hasMessage("plugin 'precise-prefix-cache-scorer' (precise-prefix-cache-scorer): " + message);
  }

  @Test
  void aDurationThatIsNotOneNamesTheParameter() {
    assertThatThrownBy(() -> load("{speculativeTTL: soon}"))
        .hasMessageStartingWith("plugin 'precise-prefix-cache-scorer' (precise-prefix-cache-scorer): "
            + "parameter 'speculativeTTL': ").hasMessageContaining("soon");
  }
}
