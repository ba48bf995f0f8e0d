package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.testsupport.GitHubReleasesServer;
import dev.modelplane.testsupport.GitHubReleasesServer.Seen;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link GitHubReleaseClient} and {@link ResumableDownloader} against a loopback GitHub release API and CDN. */
class GitHubReleaseClientTest {
  private static final byte[] WEIGHTS = HubClientTest.bytes(700_000, 11);
  private final Map<String, byte[]> uploaded = new LinkedHashMap<>();
  private GitHubReleasesServer github;

  @TempDir
  Path target;

  @BeforeEach
  void start() throws IOException {
    github = new GitHubReleasesServer();
    github.put("v1", "old.bin", new byte[] {1});
    uploaded.put("model.safetensors", WEIGHTS);
    uploaded.put("config.json", "{\"model_type\":\"llama\"}".getBytes());
    for (int i = 0; i < 5; i++) {
      uploaded.put("part-" + i + ".bin", HubClientTest.bytes(1000 + i, i));
    }
    uploaded.forEach((name, bytes) -> github.put("v2", name, bytes));
  }

  @AfterEach
  void stop() {
    github.close();
  }

  @Test
  void listsTheLatestReleasesAssetsAcrossPagesWithTheirDigests() throws IOException {
    GitHubReleaseClient client = new GitHubReleaseClient(settings("latest").withPageSize(2));
    List<RemoteFile> files = client.list();
    assertThat(files).extracting(RemoteFile::path).containsExactlyElementsOf(uploaded.keySet());
    for (RemoteFile file : files) {
      assertThat(file.size()).isEqualTo(uploaded.get(file.path()).length);
      assertThat(file.sha256()).contains(SigV4Signer.sha256Hex(uploaded.get(file.path())));
    }
    assertThat(client.revision()).contains("v2");
    assertThat(client.describe()).isEqualTo("github://modelplane/models");
    assertThat(github.requests).extracting(Seen::path).hasSize(5).first()
        .isEqualTo("/repos/modelplane/models/releases/latest");
    assertThat(github.requests.subList(1, 5)).as("7 assets, 2 a page").extracting(Seen::query).containsExactly(
        "per_page=2", "per_page=2&page=2", "per_page=2&page=3", "per_page=2&page=4");
    assertThat(github.requests).allSatisfy(r -> {
      assertThat(r.authorization()).isEqualTo("Bearer " + GitHubReleasesServer.TOKEN);
      assertThat(r.apiVersion()).isEqualTo("2022-11-28");
    });
    assertThatThrownBy(() -> new GitHubReleaseClient(settings("v2").withPageSize(2), 3).list())
        .hasMessageEndingWith("more than 3 assets in release 'v2' of modelplane/models; a model may have at most 3 "
            + "files (model agent flag --max-listed-objects)");
  }

  @Test
  void downloadsAndResumesThroughTheRedirectWithoutSendingTheTokenThere() throws IOException {
    GitHubReleaseClient client = new GitHubReleaseClient(settings("v2"));
    Files.write(target.resolve("model.safetensors.part"), Arrays.copyOf(WEIGHTS, 123_456));
    DownloadResult result = new ResumableDownloader().download(client, target, p -> { }, () -> false);
    assertThat(result.resumedBytes()).isEqualTo(123_456);
    for (Map.Entry<String, byte[]> e : uploaded.entrySet()) {
      assertThat(Files.readAllBytes(target.resolve(e.getKey()))).as(e.getKey()).isEqualTo(e.getValue());
    }
    List<Seen> cdn = github.requests.stream().filter(r -> r.server().equals("cdn")).toList();
    assertThat(cdn).hasSize(uploaded.size()).allSatisfy(r -> assertThat(r.authorization()).isNull());
    assertThat(cdn).extracting(Seen::range).contains("bytes=123456-");
  }

  @Test
  void anAssetWhoseBytesDoNotMatchItsDigestFailsNamingIt() {
    github.putWithWrongChecksum("v3", "model.bin", HubClientTest.bytes(5000, 1), HubClientTest.bytes(5000, 2));
    assertThatThrownBy(() -> new ResumableDownloader().download(new GitHubReleaseClient(settings("v3")), target,
        p -> { }, () -> false)).isInstanceOf(FetchException.class)
        .hasMessageStartingWith("sha256 mismatch for 'model.bin' from github://modelplane/models@v3: expected ")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.INTEGRITY));
  }

  @Test
  void assetsWithoutDigestsAreCheckedBySizeOnly() throws IOException {
    github.withoutDigests = true;
    assertThat(new GitHubReleaseClient(settings("v2")).list()).allSatisfy(f -> assertThat(f.expected()).isEmpty());
  }

  @Test
  void aWrongOrMissingTokenIsNamedWithoutTheToken() {
    String api = github.apiEndpoint();
    assertThatThrownBy(() -> new GitHubReleaseClient(settings("v2").withToken(Optional.of("ghp_wrong"))).list())
        .hasMessage(api + " rejected the token reading release 'v2' of modelplane/models (HTTP 401: Bad credentials)")
        .hasMessageNotContaining("ghp_wrong")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED));
    assertThatThrownBy(() -> new GitHubReleaseClient(settings("v2").withToken(Optional.empty())).list())
        .hasMessage("release 'v2' of modelplane/models not found at " + api + " (a private repository needs a "
            + "token) (HTTP 404: Not Found)");
  }

  @Test
  void aMissingTagOrRepositoryIsNotFound() {
    assertThatThrownBy(() -> new GitHubReleaseClient(settings("v9")).list())
        .hasMessage("release 'v9' of modelplane/models not found at " + github.apiEndpoint() + " (HTTP 404: Not Found)")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.NOT_FOUND));
    assertThatThrownBy(() -> new GitHubReleaseClient(GitHubSettings.of(URI.create(github.apiEndpoint()), "other",
        "repo", "latest", Optional.of(GitHubReleasesServer.TOKEN))).revision())
        .hasMessageStartingWith("release 'latest' of other/repo not found at ");
  }

  @Test
  void theRateLimitIsARetryableServerErrorNamingTheReset() {
    github.rateLimited = true;
    assertThatThrownBy(() -> new GitHubReleaseClient(settings("v2")).list())
        .hasMessage(github.apiEndpoint() + " rate-limited the token reading release 'v2' of modelplane/models; it "
            + "resets at 2026-01-01T00:00:00Z (HTTP 403: API rate limit exceeded for 127.0.0.1.)")
        .satisfies(e -> assertThat(((FetchException) e).retryable()).isTrue());
  }

  private GitHubSettings settings(String tag) {
    return GitHubSettings.of(URI.create(github.apiEndpoint()), GitHubReleasesServer.OWNER, GitHubReleasesServer.REPO,
        tag, Optional.of(GitHubReleasesServer.TOKEN));
  }
}
