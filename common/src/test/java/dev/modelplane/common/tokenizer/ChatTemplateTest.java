package dev.modelplane.common.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChatTemplateTest {
  private static final List<ChatMessage> HI = List.of(new ChatMessage("user", "Hi"));

  private static String render(String template, List<ChatMessage> messages) {
    return ChatTemplate.of(template, "/models/m").render(messages, true, Map.of("bos_token", "<s>"));
  }

  @Test
  void messageTextIsNeverInterpretedAsATemplate() {
    List<ChatMessage> sly = List.of(new ChatMessage("user", "{{ 7 * 7 }} {% if true %}X{% endif %} {# c #}"));
    assertThat(render("{{ bos_token }}{% for m in messages %}{{ m.content }}|{{ m['content'] | trim }}"
        + "{% endfor %}", sly)).isEqualTo("<s>{{ 7 * 7 }} {% if true %}X{% endif %} {# c #}|"
        + "{{ 7 * 7 }} {% if true %}X{% endif %} {# c #}");
  }

  @Test
  void raiseExceptionFailsTheRenderWithItsMessageAndTheOrigin() {
    assertThatThrownBy(() -> render("{% if messages | length < 2 %}{{ raise_exception('need two messages') }}"
        + "{% endif %}ok", HI))
        .isInstanceOf(ChatTemplateException.class)
        .hasMessage("the chat template of /models/m refused the messages: need two messages");
  }

  @Test
  void aSyntaxErrorNamesTheOriginAndTheProblem() {
    assertThatThrownBy(() -> render("{% for m in messages %}{{ m.content }}", HI))
        .isInstanceOf(ChatTemplateException.class)
        .hasMessageStartingWith("the chat template of /models/m does not render: ")
        .hasMessageContaining("endfor");
    assertThatThrownBy(() -> render("{{ undefined_function(1) }}", HI))
        .isInstanceOf(ChatTemplateException.class).hasMessageContaining("/models/m")
        .hasMessageContaining("undefined_function");
  }

  @Test
  void whatIsUndefinedRendersAsNothingAsInJinja2() {
    assertThat(render("[{{ messages[0].nothing }}|{{ messages[0].content.nothing }}|{{ messages[5] }}|"
        + "{{ nothing }}]", HI)).isEqualTo("[|||]");
  }

  @Test
  void whatJinjavaWouldRenderDifferentlyIsRefused() {
    assertThatThrownBy(() -> render("{% for m in messages if m.role == 'user' %}{{ m.content }}{% endfor %}", HI))
        .isInstanceOf(ChatTemplateException.class)
        .hasMessageContaining("/models/m").hasMessageContaining("filters a for loop inline");
    assertThatThrownBy(() -> render("{{ messages | map(attribute='content') | max }}", HI))
        .isInstanceOf(ChatTemplateException.class)
        .hasMessageContaining("/models/m").hasMessageContaining("the filter max");
    // Not a loop filter: a conditional in brackets, an `if` inside a name or a string, `|` inside a string.
    assertThat(render("{% for m in (messages if true else []) %}{{ m.content }}{% endfor %}"
        + "{% for elif_x in ['if', '|nope'] %}{{ elif_x }}{% endfor %}", HI)).isEqualTo("Hiif|nope");
    assertThat(render("{% for k, v in {'a': 1} | items %}{{ k }}={{ v }}{% endfor %}", HI)).isEqualTo("a=1");
  }

  @Test
  void templatesCannotIncludeFiles() {
    assertThatThrownBy(() -> render("{% include '/etc/hostname' %}", HI))
        .isInstanceOf(ChatTemplateException.class).hasMessageContaining("/models/m");
  }

  @Test
  void strftimeNowIsDefinedAndGivesTodaysDate() {
    String today = LocalDate.now().format(DateTimeFormatter.ofPattern("dd MMM yyyy", Locale.ENGLISH));
    String out = render("{% if strftime_now is defined %}{{ strftime_now('%d %b %Y') }}{% else %}none{% endif %}",
        HI);
    assertThat(out).isIn(today, LocalDate.now().plusDays(1).format(DateTimeFormatter.ofPattern("dd MMM yyyy",
        Locale.ENGLISH)));
  }

  @Test
  void oneTrailingNewlineOfTheTemplateIsDropped() {
    assertThat(render("x\n\n", HI)).isEqualTo("x\n");
    assertThat(render("x\r\n", HI)).isEqualTo("x");
    assertThat(ChatTemplate.of("x", "/models/m").origin()).isEqualTo("/models/m");
  }

  @Test
  void dictionariesIterateOverTheirKeysAndNonesStayInLoops() {
    assertThat(ChatTemplate.of("{% for k in d %}{{ k }}{% endfor %}|{% for x in [1, none, 2] %}"
        + "{% if x is none %}N{% else %}{{ x }}{% endif %}{% endfor %}|{{ {'a': 'b'} }}", "t")
        .render(Map.of("d", new java.util.LinkedHashMap<>(Map.of("z", 1))))).isEqualTo("z|1N2|{'a': 'b'}");
  }
}
