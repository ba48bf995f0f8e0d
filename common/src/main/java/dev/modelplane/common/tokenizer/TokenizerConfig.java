package dev.modelplane.common.tokenizer;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a model directory's {@code tokenizer_config.json} (and {@code chat_template.jinja}) add to
 * {@code tokenizer.json}: the special tokens a chat template sees, the chat template, and whether an encoding with
 * special tokens gets BOS and EOS.
 *
 * @param specialTokens {@code bos_token}, {@code eos_token}, … as template variables (only those given)
 * @param chatTemplate the template, or null when there is none
 * @param addBosToken {@code add_bos_token}, or null when not stated
 * @param addEosToken {@code add_eos_token}, or null when not stated
 */
record TokenizerConfig(Map<String, String> specialTokens, ChatTemplate chatTemplate, Boolean addBosToken,
    Boolean addEosToken) {
  static final String FILE = "tokenizer_config.json";
  /** Newer transformers save the template beside the config; it takes precedence, as there. */
  static final String TEMPLATE_FILE = "chat_template.jinja";
  private static final String[] SPECIAL = {"bos_token", "eos_token", "unk_token", "pad_token", "sep_token",
      "cls_token", "mask_token"};
  private static final ObjectMapper JSON = new ObjectMapper();

  /** No configuration: a {@code tokenizer.json} given on its own. */
  static final TokenizerConfig NONE = new TokenizerConfig(Map.of(), null, null, null);

  /** The configuration in {@code dir}; {@link #NONE} when it has neither file. */
  static TokenizerConfig read(Path dir) {
    Path file = dir.resolve(FILE);
    JsonNode root = JSON.createObjectNode();
    if (Files.isRegularFile(file)) {
      try {
        root = JSON.readTree(file.toFile());
      } catch (IOException e) {
        throw new TokenizerException("cannot read " + file + ": " + why(e), e);
      }
      if (root == null || !root.isObject()) {
        throw new TokenizerException(file + " is not a JSON object");
      }
    }
    Map<String, String> special = new LinkedHashMap<>();
    for (String name : SPECIAL) {
      JsonNode v = root.get(name);
      // A token is a string or, in older files, an AddedToken object with its text in "content".
      String text = v == null ? null : v.isTextual() ? v.asText() : v.path("content").isTextual()
          ? v.path("content").asText() : null;
      if (text != null) {
        special.put(name, text);
      }
    }
    ChatTemplate template = null;
    Path templateFile = dir.resolve(TEMPLATE_FILE);
    if (Files.isRegularFile(templateFile)) {
      try {
        template = ChatTemplate.of(Files.readString(templateFile), templateFile.toString());
      } catch (IOException e) {
        throw new TokenizerException("cannot read " + templateFile + ": " + e.getMessage(), e);
      }
    } else {
      String text = templateText(root.get("chat_template"));
      template = text == null ? null : ChatTemplate.of(text, file.toString());
    }
    return new TokenizerConfig(Map.copyOf(special), template, bool(root, "add_bos_token"),
        bool(root, "add_eos_token"));
  }

  /** A template is a string, or a list of named templates of which {@code default} is the one chats use. */
  private static String templateText(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (node.isTextual()) {
      return node.asText();
    }
    if (node.isArray()) {
      for (JsonNode named : node) {
        if ("default".equals(named.path("name").asText()) && named.path("template").isTextual()) {
          return named.path("template").asText();
        }
      }
    }
    return null;
  }

  private static String why(IOException e) {
    if (e instanceof JsonProcessingException j) {
      JsonLocation at = j.getLocation();
      return "not valid JSON: " + j.getOriginalMessage()
          + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")");
    }
    return e.toString();
  }

  private static Boolean bool(JsonNode root, String field) {
    JsonNode v = root.get(field);
    return v != null && v.isBoolean() ? v.asBoolean() : null;
  }
}
