package dev.modelplane.crdtools;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JavadocTextTest {
  @Test
  void inlineTagsBecomeTheirTextAndKeepAngleBrackets() {
    assertThat(JavadocText.clean("Set {@code <org>/<repo>} or {@link Foo#bar the bar} or {@link Foo#baz}."))
        .isEqualTo("Set <org>/<repo> or the bar or baz.");
  }

  @Test
  void htmlIsDroppedAndParagraphsKept() {
    assertThat(JavadocText.clean(" First line\n continues here.\n\n <p>Second <b>para</b> &lt;x&gt;.\n"))
        .isEqualTo("First line continues here.\nSecond para <x>.");
  }

  @Test
  void paramTagsAreCollectedPerName() {
    var params = JavadocText.paramTags("Type doc.\n\n@param a First\n  continued.\n@param b Second.\n@see X\n");
    assertThat(params).containsOnlyKeys("a", "b");
    assertThat(JavadocText.clean(params.get("a"))).isEqualTo("First continued.");
    assertThat(JavadocText.clean(params.get("b"))).isEqualTo("Second.");
    assertThat(JavadocText.clean(JavadocText.withoutBlockTags("Type doc.\n@param a x"))).isEqualTo("Type doc.");
  }
}
