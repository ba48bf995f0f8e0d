package dev.modelplane.operator.prefixrouting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TokenizerSourceTest {
  @Test
  void theThreeFormsAreRead() {
    assertThat(TokenizerSource.parse("configmap:qwen-tok")).isEqualTo(new TokenizerSource("qwen-tok", null, ""));
    assertThat(TokenizerSource.parse(" pvc:models/qwen3/ ")).isEqualTo(new TokenizerSource(null, "models", "qwen3"));
    assertThat(TokenizerSource.parse("pvc:models")).isEqualTo(new TokenizerSource(null, "models", ""));
    TokenizerSource word = TokenizerSource.parse("word");
    assertThat(word.mounted()).isFalse();
    assertThat(word.flag()).isEqualTo("--tokenizer=word");
    assertThat(TokenizerSource.parse("pvc:models").flag()).isEqualTo("--tokenizer=/tokenizer");
    assertThat(TokenizerSource.parse("pvc:models").mount().getSubPath()).isNull();
  }

  @Test
  void anythingElseIsRefusedWithTheAcceptedForms() {
    assertThatThrownBy(() -> TokenizerSource.parse("configmap:Not_A_Name")).hasMessage("modelplane.dev/tokenizer: "
        + "\"configmap:Not_A_Name\" is not configmap:NAME, pvc:CLAIM[/PATH] or word");
    assertThatThrownBy(() -> TokenizerSource.parse("pvc:models/../etc")).hasMessage("modelplane.dev/tokenizer: "
        + "the sub-path of \"pvc:models/../etc\" must not contain '..'");
  }
}
