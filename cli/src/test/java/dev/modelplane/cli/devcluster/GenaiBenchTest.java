package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where genai-bench is installed: the same place and version as the bench scripts use. */
class GenaiBenchTest {
  @Test
  void theCacheFollowsModelplaneCacheThenXdgThenHome() {
    assertThat(GenaiBench.inCache(Map.of("MODELPLANE_CACHE", "/c"), "/home/u").home())
        .isEqualTo(Path.of("/c/genai-bench-0.0.5"));
    assertThat(GenaiBench.inCache(Map.of("XDG_CACHE_HOME", "/x"), "/home/u").home())
        .isEqualTo(Path.of("/x/modelplane/genai-bench-0.0.5"));
    GenaiBench home = GenaiBench.inCache(Map.of(), "/home/u");
    assertThat(home.home()).isEqualTo(Path.of("/home/u/.cache/modelplane/genai-bench-0.0.5"));
    assertThat(home.bin()).isEqualTo(Path.of("/home/u/.cache/modelplane/genai-bench-0.0.5/venv/bin"));
    assertThat(home.tokenizer()).isEqualTo(Path.of("/home/u/.cache/modelplane/genai-bench-0.0.5/tokenizer"));
  }

  @Test
  void theScriptInstallsTheSameVersionIntoTheSamePlace() throws Exception {
    String script = Files.readString(Path.of(System.getProperty("modelplane.repo.root", ".."),
        "hack/bench/genai-bench.sh"));
    Matcher version = Pattern.compile("version=\"\\$\\{GENAI_BENCH_VERSION:-([^}]+)}\"").matcher(script);
    assertThat(version.find()).isTrue();
    assertThat(version.group(1)).isEqualTo(GenaiBench.VERSION);
    assertThat(script).contains("cache=\"${MODELPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane}"
        + "/genai-bench-$version\"", "bin=\"$cache/venv/bin/genai-bench\"", "$cache/.complete");
  }

  @Test
  void withoutASupportedPythonTheInstallSaysWhatItNeedsAndLeavesNothingBehind(@TempDir Path tmp) throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Files.writeString(bin.resolve("python3"), "#!/bin/sh\nexit 1\n");
    bin.resolve("python3").toFile().setExecutable(true);
    GenaiBench bench = new GenaiBench(tmp.resolve("cache/genai-bench-0.0.5"), bin.toString());
    assertThatThrownBy(bench::install).isInstanceOf(IOException.class)
        .hasMessage("genai-bench needs Python 3.10 to 3.12 on PATH (python3 on PATH is not)");
    assertThat(bench.installed()).isFalse();
    assertThat(tmp.resolve("cache/genai-bench-0.0.5")).doesNotExist();
  }

  @Test
  void theTokenizerScriptIsPartOfTheDistribution() throws Exception {
    try (var in = GenaiBench.class.getResourceAsStream("tokenizer.py")) {
      assertThat(in).isNotNull();
      assertThat(new String(in.readAllBytes())).contains("WordLevel", "tokenizer_config.json");
    }
  }
}
