package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and the docs point into the code: every relative link must name a file (or folder) of the checkout, and
 * a link to a heading of a Markdown file must name a heading that exists. A class that is renamed or moved without
 * its docs fails here.
 */
class DocLinksTest {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);
  private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");
  /** The user-facing docs, each of which must link into the code at least once. */
  private static final List<String> POINT_INTO_CODE = List.of("docs/ome-serving.md", "docs/modelservice.md",
      "docs/operator.md", "docs/router.md", "docs/model-agent.md", "docs/local-platform.md", "docs/simulator.md");

  private static Path repo() {
    return Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
  }

  private static List<Path> documents() throws IOException {
    List<Path> docs = new ArrayList<>();
    docs.add(repo().resolve("README.md"));
    try (Stream<Path> files = Files.list(repo().resolve("docs"))) {
      files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  private static List<String> links(Path doc) throws IOException {
    String text = FENCE.matcher(Files.readString(doc)).replaceAll("");
    List<String> links = new ArrayList<>();
    Matcher m = LINK.matcher(text);
    while (m.find()) {
      String target = m.group(1);
      if (!target.contains("://") && !target.startsWith("mailto:")) {
        links.add(target);
      }
    }
    return links;
  }

  /** GitHub's anchor of a heading: lower case, punctuation other than '-' and '_' dropped, spaces to '-'. */
  static String anchor(String heading) {
    String plain = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
    StringBuilder out = new StringBuilder();
    plain.codePoints().forEach(c -> {
      if (c == ' ') {
        out.append('-');
      } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }

  private static Set<String> anchors(Path doc) {
    Set<String> anchors = new HashSet<>();
    String text;
    try {
      text = Files.readString(doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Matcher m = HEADING.matcher(FENCE.matcher(text).replaceAll(""));
    while (m.find()) {
      String base = anchor(m.group(1).strip());
      String candidate = base;
      for (int n = 1; !anchors.add(candidate); n++) {
        candidate = base + "-" + n;
      }
    }
    return anchors;
  }

  @Test
  void everyRelativeLinkNamesAFileOrHeadingThatExists() throws IOException {
    List<String> broken = new ArrayList<>();
    Map<Path, Set<String>> anchorsOf = new HashMap<>();
    for (Path doc : documents()) {
      for (String link : links(doc)) {
        int hash = link.indexOf('#');
        String file = hash < 0 ? link : link.substring(0, hash);
        Path target = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
        if (!Files.exists(target)) {
          broken.add(repo().relativize(doc) + ": " + link + " (no such file)");
        } else if (hash >= 0 && target.toString().endsWith(".md")
            && !anchorsOf.computeIfAbsent(target, DocLinksTest::anchors).contains(link.substring(hash + 1))) {
          broken.add(repo().relativize(doc) + ": " + link + " (no such heading)");
        }
      }
    }
    assertThat(broken).isEmpty();
  }

  @Test
  void userFacingDocsLinkToTheClassesThatImplementThem() throws IOException {
    for (String doc : POINT_INTO_CODE) {
      assertThat(links(repo().resolve(doc))).as(doc).anyMatch(l -> l.endsWith(".java"));
    }
  }

  @Test
  void anchorsAreGithubs() {
    assertThat(anchor("The user CLI")).isEqualTo("the-user-cli");
    assertThat(anchor("Configuration (`EndpointPickerConfig`)")).isEqualTo("configuration-endpointpickerconfig");
    assertThat(anchor("Runtimes shipped (`deploy/runtimes/`)")).isEqualTo("runtimes-shipped-deployruntimes");
    assertThat(anchor("Prefill/decode and the default router")).isEqualTo("prefilldecode-and-the-default-router");
  }
}
