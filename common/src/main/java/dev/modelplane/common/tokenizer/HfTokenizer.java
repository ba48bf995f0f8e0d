package dev.modelplane.common.tokenizer;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Hugging Face tokenizer: {@code tokenizer.json} run by the Rust {@code tokenizers} library (through DJL's JNI
 * binding, offline: see {@link DjlRuntime}), the same code transformers' fast tokenizers and so vLLM run. From a
 * model directory it also reads {@code tokenizer_config.json} (chat template, special tokens, {@code add_bos_token}
 * and {@code add_eos_token}) and {@code chat_template.jinja}; a {@code tokenizer.json} file given alone has no chat
 * template.
 *
 * <p>Special tokens: by default the post-processor of {@code tokenizer.json} adds them (Llama 3 adds BOS). When
 * {@code tokenizer_config.json} states {@code add_bos_token} or {@code add_eos_token}, those decide instead, as
 * transformers' Llama and Gemma tokenizers rebuild their post-processor from them.
 *
 * <p>The native tokenizer is freed by {@link #close()}, or once the object is unreachable; a shared instance from
 * {@link TokenizerCache} is never closed by its users.
 */
public final class HfTokenizer implements ModelTokenizer, AutoCloseable {
  static final String FILE = "tokenizer.json";
  private static final Cleaner CLEANER = Cleaner.create();

  private final String name;
  private final HuggingFaceTokenizer djl;
  private final TokenizerConfig config;
  private final int bosId;
  private final int eosId;
  private final Cleaner.Cleanable cleanable;

  private HfTokenizer(String name, HuggingFaceTokenizer tokenizer, TokenizerConfig config) {
    this.name = name;
    this.djl = tokenizer;
    this.config = config;
    this.bosId = Boolean.TRUE.equals(config.addBosToken()) ? specialId("bos_token") : -1;
    this.eosId = Boolean.TRUE.equals(config.addEosToken()) ? specialId("eos_token") : -1;
    this.cleanable = CLEANER.register(this, tokenizer::close);
  }

  /**
   * Loads a tokenizer.
   *
   * @param path a model directory holding {@code tokenizer.json}, or a {@code tokenizer.json} file
   * @throws TokenizerException naming the file when it is missing or cannot be read
   */
  public static HfTokenizer load(Path path) {
    Path file;
    TokenizerConfig config;
    if (Files.isDirectory(path)) {
      file = path.resolve(FILE);
      if (!Files.isRegularFile(file)) {
        throw new TokenizerException(path + " has no " + FILE);
      }
      config = TokenizerConfig.read(path);
    } else if (Files.isRegularFile(path)) {
      file = path;
      config = TokenizerConfig.NONE;
    } else {
      throw new TokenizerException("no tokenizer at " + path + ": neither a directory nor a file");
    }
    DjlRuntime.prepare();
    HuggingFaceTokenizer tokenizer;
    try {
      tokenizer = HuggingFaceTokenizer.builder().optTokenizerPath(file).optTruncation(false).optPadding(false)
          .build();
    } catch (IOException | RuntimeException e) {
      throw new TokenizerException("cannot load " + file + ": " + e.getMessage(), e);
    } catch (LinkageError e) {
      // The native library does not load (a missing libstdc++, an old glibc); DJL's classes then stay unusable.
      throw new TokenizerException("cannot load the native tokenizer library for " + file + ": " + e.getMessage(),
          e);
    }
    HfTokenizer t = null;
    try {
      t = new HfTokenizer(path.toString(), tokenizer, config);
      return t;
    } finally {
      if (t == null) {
        tokenizer.close();
      }
    }
  }

  private int specialId(String which) {
    String text = config.specialTokens().get(which);
    if (text == null) {
      throw new TokenizerException(name + ": " + TokenizerConfig.FILE + " sets add_" + which + " but has no "
          + which);
    }
    long[] ids = djl.encode(text, false, false).getIds();
    if (ids.length != 1) {
      throw new TokenizerException(name + ": " + which + " " + text + " is not one token but " + ids.length);
    }
    return (int) ids[0];
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Tokens tokenize(String text, boolean addSpecialTokens) {
    boolean configDecides = config.addBosToken() != null || config.addEosToken() != null;
    Encoding e;
    try {
      e = djl.encode(text, addSpecialTokens && !configDecides, false);
    } finally {
      // The native handle must outlive the call even if this object is otherwise unreachable by now.
      Reference.reachabilityFence(this);
    }
    long[] raw = e.getIds();
    List<String> tokens = new ArrayList<>(Arrays.asList(e.getTokens()));
    List<String> pieces = pieces(text, e.getCharTokenSpans());
    int[] ids = new int[raw.length];
    for (int i = 0; i < raw.length; i++) {
      ids[i] = (int) raw[i];
    }
    if (addSpecialTokens && configDecides) {
      if (bosId >= 0) {
        ids = prepend(ids, bosId);
        tokens.addFirst(config.specialTokens().get("bos_token"));
        pieces.addFirst("");
      }
      if (eosId >= 0) {
        ids = Arrays.copyOf(ids, ids.length + 1);
        ids[ids.length - 1] = eosId;
        tokens.add(config.specialTokens().get("eos_token"));
        pieces.add("");
      }
    }
    return new Tokens(ids, tokens, pieces);
  }

  private static int[] prepend(int[] ids, int id) {
    int[] out = new int[ids.length + 1];
    out[0] = id;
    System.arraycopy(ids, 0, out, 1, ids.length);
    return out;
  }

  /**
   * The text each token stands for, from the spans the tokenizer reports in code points: a token runs from where the
   * previous one ended to its own end; one added by the post-processor (no span) stands for nothing; the last token
   * takes whatever text follows.
   */
  static List<String> pieces(String text, CharSpan[] spans) {
    List<String> out = new ArrayList<>(spans.length);
    int endCp = 0;
    int endChar = 0;
    int last = -1;
    for (int i = 0; i < spans.length; i++) {
      CharSpan span = spans[i];
      if (span == null || span.getEnd() <= endCp) {
        out.add("");
        last = span == null ? last : i;
        continue;
      }
      int nextChar = text.offsetByCodePoints(endChar, span.getEnd() - endCp);
      out.add(text.substring(endChar, nextChar));
      endCp = span.getEnd();
      endChar = nextChar;
      last = i;
    }
    if (endChar < text.length() && last >= 0) {
      out.set(last, out.get(last) + text.substring(endChar));
    }
    return out;
  }

  @Override
  public String renderChat(List<ChatMessage> messages, boolean addGenerationPrompt) {
    if (config.chatTemplate() == null) {
      throw new ChatTemplateException(name + " has no chat template (neither " + TokenizerConfig.FILE
          + " nor " + TokenizerConfig.TEMPLATE_FILE + " gives one)");
    }
    return config.chatTemplate().render(messages, addGenerationPrompt, config.specialTokens());
  }

  /** The chat template, or null when the model has none. */
  public ChatTemplate chatTemplate() {
    return config.chatTemplate();
  }

  /** Frees the native tokenizer; using this object afterwards fails. */
  @Override
  public void close() {
    cleanable.clean();
  }

  @Override
  public String toString() {
    return "HfTokenizer[" + name + "]";
  }
}
