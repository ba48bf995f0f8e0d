package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.tokenizer.ChatMessage;
import dev.modelplane.common.tokenizer.HfTokenizer;
import dev.modelplane.common.tokenizer.WordTokenizer;
import dev.modelplane.testsupport.TestTokenizers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code --tokenizer}: with a Hugging Face tokenizer the simulator counts, renders and hashes the model's own token
 * ids (the tiny test tokenizer, whose ids Python recorded in vectors.json); a path that holds none is refused.
 */
class TokenizerFlagTest {
  private static final List<ChatMessage> SYSTEM_AND_USER = List.of(new ChatMessage("system", "You are terse."),
      new ChatMessage("user", "Hello!"));
  static Simulator sim;
  static SimClient client;
  static HfTokenizer tokenizer;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    Path model = TestTokenizers.tinyBpe();
    sim = Simulator.start(SimulatorConfig.of("tiny").host("127.0.0.1").port(0).mode("echo").seed(5)
        .tokenizer(model.toString()).interTokenLatency(Duration.ofMillis(1)).prefillOverhead(Duration.ofMillis(1)));
    client = new SimClient(sim.port());
    tokenizer = HfTokenizer.load(model);
  }

  @AfterAll
  static void stop() {
    sim.close();
    tokenizer.close();
  }

  @Test
  void aPathWithoutATokenizerIsAProblemThatNamesIt() throws Exception {
    SimulatorCommand cmd = new SimulatorCommand();
    new CommandLine(cmd).parseArgs("--model", "m", "--tokenizer", dir.resolve("nowhere").toString());
    assertThat(cmd.config.problems()).containsExactly("--tokenizer: no tokenizer at " + dir.resolve("nowhere")
        + ": neither a directory nor a file");
    Files.createDirectories(dir.resolve("empty"));
    assertThat(SimulatorConfig.of("m").tokenizer(dir.resolve("empty").toString()).problems())
        .containsExactly("--tokenizer: " + dir.resolve("empty") + " has no tokenizer.json");
    Files.writeString(dir.resolve("tokenizer.json"), "{");
    assertThatThrownBy(() -> Simulator.start(SimulatorConfig.of("m").tokenizer(dir.resolve("tokenizer.json")
        .toString()))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--tokenizer: cannot load " + dir.resolve("tokenizer.json") + ": ");

    StringWriter err = new StringWriter();
    int exit = new CommandLine(new SimulatorCommand()).setErr(new PrintWriter(err, true))
        .execute("--model", "m", "--tokenizer", dir.resolve("nowhere").toString());
    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("simulator: --tokenizer: no tokenizer at " + dir.resolve("nowhere"));
    assertThat(SimulatorConfig.of("m").tokenizer()).as("no flag: the word tokenizer").isSameAs(WordTokenizer.INSTANCE);
  }

  @Test
  void tokenizeGivesTheModelsIdsWithBosForAPromptAndTheTemplatesForMessages() throws Exception {
    JsonNode t = client.post("/tokenize", "{\"model\":\"tiny\",\"prompt\":\"Hello world\","
        + "\"return_token_strs\":true}").json();
    assertThat(ids(t.get("tokens"))).containsExactly(1268, 1245, 860);
    assertThat(t.get("count").asInt()).isEqualTo(3);
    assertThat(t.get("token_strs").toString()).isEqualTo("[\"<|begin_of_text|>\",\"Hello\",\"Ġworld\"]");
    assertThat(ids(client.post("/tokenize", "{\"prompt\":\"Hello world\",\"add_special_tokens\":false}").json()
        .get("tokens"))).containsExactly(1245, 860);

    JsonNode chat = client.post("/tokenize", chatBody(SYSTEM_AND_USER, 1)).json();
    assertThat(ids(chat.get("tokens"))).containsExactly(tokenizer.encodeChat(SYSTEM_AND_USER));
    assertThat(ids(chat.get("tokens"))).containsExactly(vectorIds(0));
  }

  @Test
  void completionsAndChatsCountTheModelsTokensAndEchoItsPieces() throws Exception {
    JsonNode c = client.post("/v1/completions", SimClient.completion("tiny", "Hello world", 1, false)).json();
    assertThat(c.at("/usage/prompt_tokens").asInt()).isEqualTo(3);

    JsonNode chat = client.post("/v1/chat/completions", chatBody(SYSTEM_AND_USER, 50)).json();
    assertThat(chat.at("/usage/prompt_tokens").asInt()).isEqualTo(vectorIds(0).length);
    assertThat(chat.at("/choices/0/message/content").asText()).isEqualTo("Hello!");
    assertThat(chat.at("/usage/completion_tokens").asInt()).isEqualTo(tokenizer.encode("Hello!", false).length);
  }

  @Test
  void messagesTheTemplateRefusesAreA400() throws Exception {
    SimClient.Response r = client.post("/v1/chat/completions", chatBody(List.of(new ChatMessage("user", "a"),
        new ChatMessage("user", "b")), 5));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().at("/error/message").asText()).contains("Conversation roles must alternate")
        .contains(TestTokenizers.tinyBpe().toString());
    assertThat(r.json().at("/error/param").asText()).isEqualTo("messages");
  }

  @Test
  void thePrefixCacheHashesTheModelsIds() throws Exception {
    String system = "The router counts the same prompt tokens as the model server, so prefix hashes match. "
        .repeat(4);
    List<ChatMessage> first = List.of(new ChatMessage("system", system), new ChatMessage("user", "first question"));
    List<ChatMessage> second = List.of(new ChatMessage("system", system), new ChatMessage("user", "other one"));
    int[] a = tokenizer.encodeChat(first);
    int[] b = tokenizer.encodeChat(second);
    int common = 0;
    while (common < Math.min(a.length, b.length) && a[common] == b[common]) {
      common++;
    }
    try (Simulator fresh = Simulator.start(SimulatorConfig.of("tiny").host("127.0.0.1").port(0).mode("echo")
        .seed(5).tokenizer(TestTokenizers.tinyBpe().toString()).interTokenLatency(Duration.ofMillis(1))
        .prefillOverhead(Duration.ofMillis(1)))) {
      SimClient c = new SimClient(fresh.port());
      c.post("/v1/chat/completions", chatBody(first, 1));
      JsonNode usage = c.post("/v1/chat/completions", chatBody(second, 1)).json().get("usage");
      assertThat(usage.get("prompt_tokens").asInt()).isEqualTo(b.length);
      assertThat(common).isGreaterThan(32);
      assertThat(usage.at("/prompt_tokens_details/cached_tokens").asInt()).isEqualTo(common / 16 * 16);
    }
  }

  @Test
  void generatedTokensAreTokensOfTheModel() {
    var random = new SplittableRandom(3);
    TextGenerator.Output out = TextGenerator.generate(tokenizer, "random", "", 12, true, true, List.of(), random);
    assertThat(out.tokens()).hasSize(12);
    assertThat(out.ids()).hasSize(12);
    assertThat(java.util.Arrays.stream(out.ids()).boxed().toList()).allMatch(id -> id >= 0 && id < 1268);
    TextGenerator.Output echo = TextGenerator.generate(tokenizer, "echo", "Café 🙂 routing", 100, true, false,
        List.of(), random);
    assertThat(echo.ids()).containsExactly(tokenizer.encode("Café 🙂 routing", false));
    assertThat(String.join("", echo.tokens())).isEqualTo("Café 🙂 routing");
    TextGenerator.Output empty = TextGenerator.generate(tokenizer, "echo", "", 2, true, true, List.of(), random);
    assertThat(empty.tokens()).containsExactly(" ", " ");
    assertThat(empty.ids()).containsExactly(220, 220);
    TextGenerator.Output stopped = TextGenerator.generate(tokenizer, "echo", "Hello world again", 100, true, false,
        List.of("wor"), random);
    assertThat(String.join("", stopped.tokens())).isEqualTo("Hello ");
    assertThat(stopped.ids()).hasSize(stopped.tokens().size());
  }

  private static String chatBody(List<ChatMessage> messages, int maxTokens) {
    ObjectNode body = SimClient.JSON.createObjectNode().put("model", "tiny").put("max_tokens", maxTokens);
    ArrayNode list = body.putArray("messages");
    messages.forEach(m -> list.addObject().put("role", m.role()).put("content", m.content()));
    return body.toString();
  }

  private static int[] vectorIds(int chat) throws Exception {
    JsonNode v = SimClient.JSON.readTree(TestTokenizers.tinyBpe().resolve("vectors.json").toFile());
    return ids(v.at("/chats/" + chat + "/ids"));
  }

  private static int[] ids(JsonNode array) {
    List<Integer> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asInt()));
    return out.stream().mapToInt(Integer::intValue).toArray();
  }
}
