package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.testsupport.GitHubReleasesServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code modelplane fetch}, as a BenchmarkJob's dataset container runs it: a store's files into a directory. */
class FetchCommandTest {
  @TempDir
  Path dir;

  private record Run(int code, String out, String err) {
  }

  private static Run run(List<String> args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Main.run(args.toArray(String[]::new));
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  private List<String> args(GitHubReleasesServer store, Path dest, Path secrets) {
    List<String> args = new ArrayList<>(List.of("fetch", "--storage-uri", store.storageUri("v1"), "--dest",
        dest.toString(), "--secret-dir", secrets.toString()));
    for (Map.Entry<String, String> p : store.parameters().entrySet()) {
      args.addAll(List.of("--parameter", p.getKey() + "=" + p.getValue()));
    }
    return args;
  }

  @Test
  void fetchesAStoreWithTheCredentialsOfAMountedSecret() throws Exception {
    try (GitHubReleasesServer store = new GitHubReleasesServer()) {
      store.put("v1", "prompts.jsonl", "{\"text\":\"hi\"}\n".getBytes(StandardCharsets.UTF_8));
      Path secrets = Files.createDirectories(dir.resolve("secret"));
      for (Map.Entry<String, String> e : store.secretData().entrySet()) {
        Files.writeString(secrets.resolve(e.getKey()), e.getValue());
      }
      Files.createDirectories(secrets.resolve("..data")); // what a mounted Secret also holds: not a key
      Path dest = dir.resolve("dataset");
      Run ok = run(args(store, dest, secrets));
      assertThat(ok.code()).as(ok.err()).isZero();
      assertThat(ok.out()).contains("fetched " + store.storageUri("v1") + " into " + dest + ": 1 files");
      assertThat(Files.readString(dest.resolve("prompts.jsonl"))).contains("hi");

      store.token = "another-token";
      Run denied = run(args(store, dir.resolve("denied"), secrets));
      assertThat(denied.code()).isEqualTo(1);
      assertThat(denied.err().lines().filter(l -> l.startsWith("modelplane fetch: "))).singleElement()
          .asString().contains("rejected the token", "modelplane/models");
      assertThat(denied.err()).doesNotContain(GitHubReleasesServer.TOKEN).doesNotContain("Exception");
    }
  }

  @Test
  void aUriThatIsNoStoreIsOneLineOfError() {
    Run r = run(List.of("fetch", "--storage-uri", "pvc://claim/data", "--dest", dir.toString()));
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip()).isEqualTo("modelplane fetch: storageUri: pvc:// is not a store to download from "
        + "(use hf://, s3://, oci://, gs://, az:// or github://)");
  }
}
