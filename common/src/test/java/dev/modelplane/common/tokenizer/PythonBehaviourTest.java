package dev.modelplane.common.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Python's json.dumps, str methods and strftime as chat templates use them; expected values are Python 3.11's. */
class PythonBehaviourTest {
  @Test
  void floatsArePrintedAsPythonsRepr() {
    double[] values = {0.1, 1e-05, 1e16, 1e15, 123456789.125, -0.0, 2.5e-7, Double.MAX_VALUE, Double.MIN_VALUE,
        100.0, 0.0001, 12345678901234567.0};
    String[] python = {"0.1", "1e-05", "1e+16", "1000000000000000.0", "123456789.125", "-0.0", "2.5e-07",
        "1.7976931348623157e+308", "5e-324", "100.0", "0.0001", "1.2345678901234568e+16"};
    for (int i = 0; i < values.length; i++) {
      assertThat(PythonJson.floatRepr(values[i])).as("%s", values[i]).isEqualTo(python[i]);
    }
    assertThat(PythonJson.floatRepr(Double.NaN)).isEqualTo("NaN");
    assertThat(PythonJson.floatRepr(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
  }

  @Test
  void jsonHasPythonsSeparatorsIndentationAndEscapes() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("x", null);
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("b", List.of(1, inner));
    value.put("a", "é\u2028\u007f\u0001");
    assertThat(PythonJson.dumps(value, null, null, null, false, false))
        .isEqualTo("{\"b\": [1, {\"x\": null}], \"a\": \"é\u2028\u007f\\u0001\"}");
    assertThat(PythonJson.dumps(value, null, null, null, false, true))
        .isEqualTo("{\"b\": [1, {\"x\": null}], \"a\": \"\\u00e9\\u2028\\u007f\\u0001\"}");
    value.put("a", List.of());
    assertThat(PythonJson.dumps(value, "  ", null, null, true, false))
        .isEqualTo("{\n  \"a\": [],\n  \"b\": [\n    1,\n    {\n      \"x\": null\n    }\n  ]\n}");
    assertThat(PythonJson.dumps(List.of(1, 2), null, ",", ":", false, false)).isEqualTo("[1,2]");
    assertThat(PythonJson.dumps(Map.of("k", Map.of()), "\t", null, null, false, false))
        .isEqualTo("{\n\t\"k\": {}\n}");
    assertThatThrownBy(() -> PythonJson.dumps(new Object(), null, null, null, false, false))
        .hasMessageContaining("is not JSON serializable");
  }

  @Test
  void stringsStripAndSplitOnPythonsWhitespace() {
    String s = "\u00a0 a\tb  c \u3000";
    assertThat(PythonStrings.strip(s, null, true, true)).isEqualTo("a\tb  c");
    assertThat(s.strip()).as("Java's strip keeps the no-break space").isNotEqualTo("a\tb  c");
    assertThat(PythonStrings.split(s, null, -1)).containsExactly("a", "b", "c");
    assertThat(PythonStrings.split(s, null, 1)).containsExactly("a", "b  c \u3000");
    assertThat(PythonStrings.split("a,,b", ",", -1)).containsExactly("a", "", "b");
    assertThat(PythonStrings.split("a,b,c", ",", 1)).containsExactly("a", "b,c");
    assertThat(PythonStrings.strip("xxhixx", "x", true, true)).isEqualTo("hi");
    assertThatThrownBy(() -> PythonStrings.split("a", "", -1)).hasMessage("empty separator");
  }

  @Test
  void stringMethodsInTemplatesActLikePythons() {
    ChatTemplate t = ChatTemplate.of("{{ s.title() }}|{{ 'hELLO'.capitalize() }}|{{ 'abc'.replace('', '-', 2) }}|"
        + "{{ 'aaa'.replace('a', 'b', 2) }}|{{ s.startswith(['x', 'hel']) }}|{{ s.endswith('y') }}|"
        + "{{ ', '.join(['a', 'b']) }}|{{ s.find('w') }}|{{ s.upper() }}|{{ s.lower() }}|{{ s.lstrip('h') }}|"
        + "{{ s.rstrip('y') }}|{{ s.length() }}|{{ s[0] }}{{ s[-1] }}{{ '🙂x'[0] }}[{{ s[99] }}]", "test");
    Map<String, Object> vars = new LinkedHashMap<>();
    vars.put("s", "hello wORLD-x y");
    assertThat(t.render(vars)).isEqualTo("Hello World-X Y|Hello|-a-bc|bba|true|true|a, b|6|HELLO WORLD-X Y|"
        + "hello world-x y|ello wORLD-x y|hello wORLD-x |15|hy🙂[]");
  }

  @Test
  void strftimeKnowsTheDirectivesTemplatesUse() {
    ZonedDateTime t = ZonedDateTime.of(2026, 7, 5, 14, 3, 9, 0, ZoneOffset.UTC);
    assertThat(JinjaEngine.strftime("%d %b %Y", t)).isEqualTo("05 Jul 2026");
    assertThat(JinjaEngine.strftime("%A %B %e %H:%M:%S %I%p %y-%m %j %% %Q", t))
        .isEqualTo("Sunday July  5 14:03:09 02PM 26-07 186 % %Q");
  }

  @Test
  void piecesFollowTheSpansInCodePoints() {
    var spans = new ai.djl.huggingface.tokenizers.jni.CharSpan[] {null, span(0, 2), span(2, 4), span(4, 6),
        span(6, 7), span(6, 7)};
    List<String> pieces = HfTokenizer.pieces("Ca🙂 x é!", spans);
    // The second token of é's bytes has nothing left of its own; the text after the last span goes to the last token.
    assertThat(pieces).containsExactly("", "Ca", "🙂 ", "x ", "é", "!");
    assertThat(String.join("", pieces)).isEqualTo("Ca🙂 x é!");
  }

  private static ai.djl.huggingface.tokenizers.jni.CharSpan span(int start, int end) {
    return new ai.djl.huggingface.tokenizers.jni.CharSpan(start, end);
  }
}
