package dev.modelplane.common.tokenizer;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model's chat template (Jinja), rendered as transformers' {@code apply_chat_template} renders it for vLLM, so the
 * prompt text, and with it every token, comes out the same. See {@link JinjaEngine} for the Python behaviours
 * reproduced; what Jinjava cannot do the same way fails loudly rather than rendering something else: a loop with an
 * inline filter ({@code for x in xs if …}) and filters Jinjava lacks ({@code max}, {@code min}) are refused. Known
 * remaining differences, which real templates do not print: booleans and {@code None} print as
 * {@code true}/{@code false}/empty, not {@code True}/{@code False}/{@code None}; Unicode escapes (a backslash,
 * {@code u} and four hex digits) in the template's string literals do not parse; a string cannot be repeated
 * ({@code '-' * 3} fails).
 */
public final class ChatTemplate {
  private static final Jinjava ENGINE = JinjaEngine.create();

  private final String source;
  private final String origin;
  private final String unsupported;

  private ChatTemplate(String source, String origin) {
    this.source = source;
    this.origin = origin;
    this.unsupported = JinjaEngine.unsupported(ENGINE, source);
  }

  /**
   * A template.
   *
   * @param source the Jinja text; one trailing newline is dropped, as Jinja2 does by default
   * @param origin where it comes from, for error messages (the model directory or file)
   */
  public static ChatTemplate of(String source, String origin) {
    String s = source.endsWith("\r\n") ? source.substring(0, source.length() - 2)
        : source.endsWith("\n") ? source.substring(0, source.length() - 1) : source;
    return new ChatTemplate(JinjaEngine.lstripBlocks(s), origin);
  }

  /** Where the template comes from. */
  public String origin() {
    return origin;
  }

  /**
   * Renders {@code messages} with the tokenizer's special tokens ({@code bos_token}, {@code eos_token}, …) as
   * variables.
   */
  public String render(List<ChatMessage> messages, boolean addGenerationPrompt, Map<String, String> specialTokens) {
    List<Map<String, Object>> list = new ArrayList<>(messages.size());
    for (ChatMessage m : messages) {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("role", m.role());
      map.put("content", m.content());
      list.add(map);
    }
    Map<String, Object> variables = new HashMap<>(specialTokens);
    variables.put("messages", list);
    variables.put("add_generation_prompt", addGenerationPrompt);
    return render(variables);
  }

  /**
   * Renders the template with any variables (messages with more fields, {@code tools}, {@code documents}): maps,
   * lists, strings, numbers, booleans and nulls, as parsed JSON gives them.
   *
   * @throws ChatTemplateException naming {@link #origin()} when the template raises or does not render
   */
  public String render(Map<String, Object> variables) {
    if (unsupported != null) {
      throw new ChatTemplateException("the chat template of " + origin + " cannot be rendered as Jinja2 renders "
          + "it: " + unsupported);
    }
    Map<String, Object> context = new HashMap<>(variables);
    // The function is registered on the engine; this only makes `strftime_now is defined` true, as in transformers.
    context.putIfAbsent("strftime_now", "strftime_now");
    RenderResult result;
    try {
      result = ENGINE.renderForResult(source, context);
    } catch (RuntimeException e) {
      throw failure(e.getMessage(), e);
    }
    for (TemplateError error : result.getErrors()) {
      JinjaEngine.Raised raised = raised(error.getException());
      if (raised != null) {
        throw new ChatTemplateException("the chat template of " + origin + " refused the messages: "
            + raised.getMessage());
      }
      // Jinja2 refuses what is malformed; what is merely undefined it renders as nothing, and so does Jinjava.
      if (error.getSeverity() == TemplateError.ErrorType.FATAL
          || error.getReason() == TemplateError.ErrorReason.SYNTAX_ERROR) {
        throw failure(error.getMessage() + (error.getLineno() > 0 ? " (line " + error.getLineno() + ")" : ""),
            error.getException());
      }
    }
    return result.getOutput();
  }

  private ChatTemplateException failure(String why, Throwable cause) {
    return new ChatTemplateException("the chat template of " + origin + " does not render: " + why, cause);
  }

  private static JinjaEngine.Raised raised(Throwable t) {
    for (int depth = 0; t != null && depth < 16; t = t.getCause(), depth++) {
      if (t instanceof JinjaEngine.Raised r) {
        return r;
      }
    }
    return null;
  }
}
