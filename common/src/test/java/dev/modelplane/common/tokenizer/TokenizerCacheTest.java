package dev.modelplane.common.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.testsupport.TestTokenizers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenizerCacheTest {
  @TempDir
  Path dir;

  @Test
  void aModelIsLoadedOnceAndAgainWhenItsFilesChange() throws IOException {
    TokenizerCache cache = new TokenizerCache(4);
    Path model = TestTokenizers.copyTinyBpe(dir.resolve("m"));
    ModelTokenizer first = cache.get(model);
    assertThat(cache.get(model)).isSameAs(first);
    assertThat(cache.get(dir.resolve("x/../m"))).as("the same path spelled otherwise").isSameAs(first);

    Path config = model.resolve("tokenizer_config.json");
    Files.writeString(config, Files.readString(config).replace("\"chat_template\"", "\"unused\"")
        .replace("\"model_max_length\": 8192,", "\"model_max_length\": 8192, \"chat_template\": \"changed\","));
    Files.setLastModifiedTime(config, FileTime.from(Instant.now().plusSeconds(5)));
    ModelTokenizer reloaded = cache.get(model);
    assertThat(reloaded).isNotSameAs(first);
    assertThat(reloaded.renderChat(java.util.List.of(), true)).isEqualTo("changed");
    assertThat(first.encode("Hello world", true)).as("the replaced one still works").containsExactly(1268, 1245, 860);
    assertThat(cache.size()).isEqualTo(1);
  }

  @Test
  void holdsAtMostItsCapacityDroppingTheLeastRecentlyUsed() throws IOException {
    TokenizerCache cache = new TokenizerCache(2);
    Path a = TestTokenizers.copyTinyBpe(dir.resolve("a"));
    Path b = TestTokenizers.copyTinyBpe(dir.resolve("b"));
    Path c = TestTokenizers.copyTinyBpe(dir.resolve("c"));
    ModelTokenizer ta = cache.get(a);
    ModelTokenizer tb = cache.get(b);
    assertThat(cache.get(a)).isSameAs(ta);
    cache.get(c);
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.get(a)).as("recently used, kept").isSameAs(ta);
    assertThat(cache.get(b)).as("least recently used, dropped and loaded again").isNotSameAs(tb);
    assertThatThrownBy(() -> new TokenizerCache(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFailedLoadIsNotCachedAndIsTriedAgain() throws IOException {
    TokenizerCache cache = new TokenizerCache(2);
    Path model = dir.resolve("later");
    assertThatThrownBy(() -> cache.get(model)).isInstanceOf(TokenizerException.class)
        .hasMessageContaining("no tokenizer at " + model);
    assertThat(cache.size()).isZero();
    TestTokenizers.copyTinyBpe(model);
    assertThat(cache.get(model).encode("Hello world", false)).containsExactly(1245, 860);
    assertThat(TokenizerCache.shared()).isSameAs(TokenizerCache.shared());
  }
}
