package dev.modelplane.common.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KvEventsConfigTest {

  @Test
  void vllmsDefaultsFillWhatTheFlagLeavesOut() {
    KvEventsConfig c = KvEventsConfig.parse("{\"enable_kv_cache_events\": true}");
    assertThat(c.publishes()).isTrue();
    assertThat(c.publisher()).isEqualTo("zmq");
    assertThat(c.endpoint()).isEqualTo("tcp://*:5557");
    assertThat(c.replayEndpoint()).isNull();
    assertThat(c.bufferSteps()).isEqualTo(10_000);
    assertThat(c.hwm()).isEqualTo(100_000);
    assertThat(c.maxQueueSize()).isEqualTo(100_000);
    assertThat(c.topic()).isEmpty();
    assertThat(KvEventsConfig.parse("{\"endpoint\": \"tcp://*:1\"}").publishes()).isFalse();
    assertThat(KvEventsConfig.parse("{\"enable_kv_cache_events\": true, \"publisher\": \"null\"}").publishes())
        .isFalse();
  }

  @Test
  void everyKeyIsRead() {
    KvEventsConfig c = KvEventsConfig.parse("""
        {"enable_kv_cache_events": true, "publisher": "zmq", "endpoint": "tcp://127.0.0.1:6000",
         "replay_endpoint": "tcp://*:6001", "buffer_steps": 5, "hwm": 6, "max_queue_size": 7,
         "topic": "kv@127.0.0.1:8000@llama"}""");
    assertThat(c).isEqualTo(new KvEventsConfig(true, "zmq", "tcp://127.0.0.1:6000", "tcp://*:6001", 5, 6, 7,
        "kv@127.0.0.1:8000@llama"));
    assertThat(c.forRank(2).endpoint()).isEqualTo("tcp://127.0.0.1:6002");
    assertThat(c.forRank(2).replayEndpoint()).isEqualTo("tcp://*:6003");
    assertThat(c.forRank(2).topic()).isEqualTo(c.topic());
    assertThat(ZmqEndpoint.offsetPort("ipc:///tmp/kv", 1)).isEqualTo("ipc:///tmp/kv_dp1");
  }

  @Test
  void wildcardsAndLocalTransportsBindOtherAddressesConnect() {
    assertThat(ZmqEndpoint.binds("tcp://*:5557")).isTrue();
    assertThat(ZmqEndpoint.binds("tcp://[::]:5557")).isTrue();
    assertThat(ZmqEndpoint.binds("ipc:///run/kv")).isTrue();
    assertThat(ZmqEndpoint.binds("tcp://127.0.0.1:5557")).isFalse();
    assertThat(ZmqEndpoint.binds("tcp://epp.svc:5557")).isFalse();
  }

  @Test
  void mistakesNameTheKeyAndTheFix() {
    assertThatThrownBy(() -> KvEventsConfig.parse("{enable: true}")).hasMessageStartingWith(
        "--kv-events-config is not JSON");
    assertThatThrownBy(() -> KvEventsConfig.parse("[1]")).hasMessageContaining("must be a JSON object");
    assertThatThrownBy(() -> KvEventsConfig.parse("{\"enable_kv_events\": true}"))
        .hasMessageContaining("unknown key \"enable_kv_events\"").hasMessageContaining("enable_kv_cache_events");
    assertThatThrownBy(() -> KvEventsConfig.parse("{\"enable_kv_cache_events\": \"yes\"}"))
        .hasMessageContaining("enable_kv_cache_events must be true or false");
    assertThatThrownBy(() -> KvEventsConfig.parse("{\"publisher\": \"kafka\"}"))
        .hasMessageContaining("publisher \"kafka\" is not supported");
    assertThatThrownBy(() -> KvEventsConfig.parse("{\"endpoint\": \"localhost:5557\"}"))
        .hasMessageContaining("endpoint \"localhost:5557\" is not a ZeroMQ address");
    assertThatThrownBy(() -> KvEventsConfig.parse("{\"replay_endpoint\": \"tcp://*:70000\"}"))
        .hasMessageContaining("replay_endpoint \"tcp://*:70000\"");
    assertThatThrownBy(() -> KvEventsConfig.parse("{\"hwm\": 0}")).hasMessageContaining("hwm must be a positive");
    assertThatThrownBy(() -> KvEventsConfig.parse("{\"buffer_steps\": 1.5}"))
        .hasMessageContaining("buffer_steps must be a positive integer");
  }

  @Test
  void topicsFollowingTheConventionNameThePodAndModel() throws Exception {
    assertThat(KvTopic.parse(KvTopic.of("127.0.0.1:8000", "meta/llama"))).isEqualTo(new KvTopic("127.0.0.1:8000",
        "meta/llama"));
    assertThat(KvTopic.parse("kv-events")).isEqualTo(new KvTopic("kv-events", null));
    assertThat(KvTopic.sequence(KvTopic.sequenceFrame(258))).isEqualTo(258);
    assertThat(KvTopic.sequence(KvTopic.sequenceFrame(KvTopic.END_OF_REPLAY))).isEqualTo(-1);
    assertThatThrownBy(() -> KvTopic.sequence(new byte[4])).hasMessageContaining("has 8 bytes, not 4");
  }
}
