package dev.modelplane.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The tiny Hugging Face tokenizer the tests share: a Llama-3-like byte-level BPE tokenizer (about 1,300 tokens,
 * BOS {@code <|begin_of_text|>} added by its post-processor, a Llama-3-style chat template), trained by
 * {@code hack/tokenizers/train-tiny.sh}, with {@code vectors.json}: the ids Python's {@code tokenizers} gives for a
 * few texts and the prompts Jinja2 renders for a few chats, for parity tests.
 */
public final class TestTokenizers {
  /** The files of the model directory. */
  public static final String[] FILES = {"tokenizer.json", "tokenizer_config.json", "vectors.json"};
  private static Path tinyBpe;

  private TestTokenizers() {
  }

  /**
   * A model directory holding the tiny tokenizer, copied once per JVM out of the class path (which may be a jar).
   * Callers must not change it; copy it with {@link #copyTinyBpe(Path)} to make variants.
   */
  public static synchronized Path tinyBpe() {
    if (tinyBpe == null) {
      try {
        Path dir = Files.createTempDirectory("tiny-bpe-");
        copyTinyBpe(dir);
        dir.toFile().deleteOnExit();
        for (String f : FILES) {
          dir.resolve(f).toFile().deleteOnExit();
        }
        tinyBpe = dir;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return tinyBpe;
  }

  /** Copies the tiny tokenizer's files into {@code dir} (created if missing) and returns it. */
  public static Path copyTinyBpe(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (String f : FILES) {
      try (InputStream in = TestTokenizers.class.getResourceAsStream("/tokenizers/tiny-bpe/" + f)) {
        if (in == null) {
          throw new IOException("tokenizers/tiny-bpe/" + f + " is not on the class path");
        }
        Files.copy(in, dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    return dir;
  }
}
