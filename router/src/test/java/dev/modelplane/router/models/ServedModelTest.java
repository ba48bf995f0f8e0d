package dev.modelplane.router.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ServedModelTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readsIdsAndTheBaseModelOfAdapters() {
    assertThat(ServedModel.parseList(bytes("""
        {"object":"list","data":[
          {"id":"llama","object":"model","root":"/models/llama","parent":null},
          {"id":"sql-lora","object":"model","root":"/adapters/sql","parent":"llama"},
          {"id":"self","parent":"self"},
          {"id":""}, {"id":7}, {"object":"model"}
        ]}"""))).containsExactly(new ServedModel("llama", null), new ServedModel("sql-lora", "llama"),
        new ServedModel("self", null));
  }

  @Test
  void refusesWhatIsNotAModelList() {
    assertThatThrownBy(() -> ServedModel.parseList(bytes("<html>"))).hasMessageStartingWith("not JSON");
    assertThatThrownBy(() -> ServedModel.parseList(bytes("{\"models\":[]}"))).hasMessage("no \"data\" list");
    assertThatThrownBy(() -> ServedModel.parseList(bytes("[]"))).hasMessage("no \"data\" list");
  }

  @Test
  void keepsAtMostTheFirstEntriesAndSkipsOverlongNames() {
    StringBuilder sb = new StringBuilder("{\"data\":[{\"id\":\"" + "x".repeat(ServedModel.MAX_ID_LENGTH + 1) + "\"}");
    for (int i = 0; i < ServedModel.MAX_ENTRIES + 10; i++) {
      sb.append(",{\"id\":\"m").append(i).append("\"}");
    }
    var list = ServedModel.parseList(bytes(sb.append("]}").toString()));
    assertThat(list).hasSize(ServedModel.MAX_ENTRIES);
    assertThat(list.get(0).id()).isEqualTo("m0");
  }
}
