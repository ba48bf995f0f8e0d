package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.testsupport.AzuriteServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AzureBlobClient} and {@link ResumableDownloader} against Azurite's Blob service on loopback, which checks
 * Shared Key signatures and SAS tokens as Azure does. Azurite's address is path-style
 * ({@code http://127.0.0.1:<port>/devstoreaccount1}): the account appears twice in the signed resource.
 */
class AzureBlobClientIT {
  private static final String PREFIX = "llama/3b";
  private static final int SMALL_FILES = 23;
  private static final byte[] WEIGHTS = HubClientTest.bytes(2_500_000, 11);
  private static final SharedKeySigner SIGNER = new SharedKeySigner(AzuriteServer.ACCOUNT, AzuriteServer.ACCOUNT_KEY);

  @TempDir
  static Path serverDir;
  private static AzuriteServer server;
  private static final Map<String, byte[]> UPLOADED = new LinkedHashMap<>();

  @TempDir
  Path target;

  @BeforeAll
  static void startAndFill() throws IOException {
    server = AzuriteServer.startOrSkip(serverDir, SIGNER::authorization);
    UPLOADED.put("model.safetensors", WEIGHTS);
    UPLOADED.put("config.json", "{\"model_type\":\"llama\"}".getBytes());
    for (int i = 0; i < SMALL_FILES; i++) {
      UPLOADED.put("shards/part-" + i + " (copy)+ü.bin", HubClientTest.bytes(1000 + i, i));
    }
    for (Map.Entry<String, byte[]> e : UPLOADED.entrySet()) {
      server.put(PREFIX, e.getKey(), e.getValue());
    }
    server.putBlob(AzuriteServer.CONTAINER, "llama/3b-instruct/config.json", new byte[] {1}); // not under llama/3b/
    server.putBlob(AzuriteServer.CONTAINER, "llama/3b/", new byte[0]); // a directory marker
    server.putBlob(AzuriteServer.CONTAINER, "other.bin", new byte[] {2});
    server.putWithWrongChecksum("broken", "weights.bin", WEIGHTS, HubClientTest.bytes(WEIGHTS.length, 12));
    server.createContainer("public-models", true);
    server.putBlob("public-models", "tiny/config.json", "{}".getBytes());
  }

  @AfterAll
  static void stop() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void listsEveryBlobUnderThePrefixAcrossPagesWithItsMd5() throws IOException {
    AzureBlobClient azure = new AzureBlobClient(settings(PREFIX).withPageSize(4));
    List<RemoteFile> files = azure.list();
    assertThat(files).as("%d blobs, 4 a page", UPLOADED.size()).extracting(RemoteFile::path)
        .containsExactlyInAnyOrderElementsOf(UPLOADED.keySet());
    for (RemoteFile file : files) {
      byte[] content = UPLOADED.get(file.path());
      assertThat(file.size()).isEqualTo(content.length);
      assertThat(file.etag()).isPresent();
      assertThat(file.expected()).contains(md5(content));
    }
    assertThat(azure.revision()).isEmpty();
    assertThat(azure.describe()).isEqualTo("az://devstoreaccount1/models/llama/3b");
  }

  @Test
  void aListingLongerThanTheLimitFailsWithoutHoldingIt() {
    AzureBlobClient azure = new AzureBlobClient(settings(PREFIX).withPageSize(4), 10);
    assertThatThrownBy(azure::list).isInstanceOf(FetchException.class)
        .hasMessage("more than 10 blobs under prefix 'llama/3b/' in Azure container 'models'; a model may have at "
            + "most 10 files (model agent flag --max-listed-objects)")
        .extracting(e -> ((FetchException) e).kind()).isEqualTo(FetchException.Kind.INVALID);
  }

  @Test
  void readsARangeFromAnOffset() throws IOException {
    AzureBlobClient azure = new AzureBlobClient(settings(PREFIX));
    try (RemoteStream in = azure.open(RemoteFile.of("model.safetensors", WEIGHTS.length), 1_000_000)) {
      assertThat(in.startOffset()).isEqualTo(1_000_000);
      assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(WEIGHTS, 1_000_000, WEIGHTS.length));
    }
  }

  @Test
  void downloadsAndResumesAPartialFileCheckingTheMd5() throws IOException {
    AzureBlobClient azure = new AzureBlobClient(settings(PREFIX));
    Files.write(target.resolve("model.safetensors.part"), Arrays.copyOf(WEIGHTS, 1_234_567));
    DownloadResult result = new ResumableDownloader().download(azure, azure.list(), target, p -> { }, () -> false);
    assertThat(result.resumedBytes()).isEqualTo(1_234_567);
    assertThat(result.downloadedFiles()).isEqualTo(UPLOADED.size());
    for (Map.Entry<String, byte[]> e : UPLOADED.entrySet()) {
      assertThat(Files.readAllBytes(target.resolve(e.getKey()))).as(e.getKey()).isEqualTo(e.getValue());
    }
  }

  @Test
  void theStoreCanBeSlowedDown() throws IOException {
    AzureBlobClient azure = new AzureBlobClient(settings(PREFIX));
    server.throttle(400_000);
    try (RemoteStream in = azure.open(RemoteFile.of("model.safetensors", WEIGHTS.length), 2_100_000)) {
      long start = System.nanoTime();
      assertThat(in.readAllBytes()).hasSize(400_000);
      assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(java.time.Duration
          .ofMillis(700));
    } finally {
      server.throttle(0);
    }
  }

  @Test
  void aBlobWhoseContentDoesNotMatchItsMd5FailsNamingIt() throws IOException {
    AzureBlobClient azure = new AzureBlobClient(settings("broken"));
    List<RemoteFile> files = azure.list();
    assertThat(files).singleElement().satisfies(f -> assertThat(f.expected())
        .contains(md5(HubClientTest.bytes(WEIGHTS.length, 12))));
    assertThatThrownBy(() -> new ResumableDownloader().download(azure, files, target, p -> { }, () -> false))
        .isInstanceOf(FetchException.class)
        .hasMessageStartingWith("md5 mismatch for 'weights.bin' from az://devstoreaccount1/models/broken: expected "
            + md5(HubClientTest.bytes(WEIGHTS.length, 12)).hex() + ", got " + md5(WEIGHTS).hex())
        .extracting(e -> ((FetchException) e).kind()).isEqualTo(FetchException.Kind.INTEGRITY);
    assertThat(target.resolve("weights.bin")).doesNotExist();
  }

  @Test
  void aWrongAccountKeyIsASignatureErrorWithoutTheKey() {
    String wrong = java.util.Base64.getEncoder().encodeToString("not the key at all".getBytes());
    AzureBlobClient azure = new AzureBlobClient(settings(PREFIX).withCredential(new AzureCredential.SharedKey(wrong)));
    assertThatThrownBy(azure::list).isInstanceOf(FetchException.class)
        .hasMessage("Azure container 'models' of account 'devstoreaccount1' at " + origin() + " rejected the Shared "
            + "Key signature: the account key does not match account 'devstoreaccount1' (a wrong or rotated key) "
            + "(AuthorizationFailure, HTTP 403)")
        .hasMessageNotContaining(wrong).hasMessageNotContaining(AzuriteServer.ACCOUNT_KEY)
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED));
  }

  @Test
  void anAccountSasSignedLocallyReadsAndAWrongOneIsDenied() throws IOException {
    String sas = AccountSas.sign(AzuriteServer.ACCOUNT, AzuriteServer.ACCOUNT_KEY, "rl");
    AzureBlobClient azure = new AzureBlobClient(settings(PREFIX).withCredential(new AzureCredential.Sas(sas)));
    assertThat(azure.list()).hasSize(UPLOADED.size());
    try (RemoteStream in = azure.open(RemoteFile.of("config.json", 22), 3)) {
      assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(UPLOADED.get("config.json"), 3, 22));
    }
    String forged = AccountSas.sign(AzuriteServer.ACCOUNT, java.util.Base64.getEncoder().encodeToString(
        "another key".getBytes()), "rl");
    assertThatThrownBy(() -> new AzureBlobClient(settings(PREFIX).withCredential(new AzureCredential.Sas(forged)))
        .list()).isInstanceOf(FetchException.class)
        .hasMessage("Azure container 'models' of account 'devstoreaccount1' at " + origin() + " rejected the SAS "
            + "token: it is expired, not yet valid, revoked, or signed for another account or resource "
            + "(AuthorizationFailure, HTTP 403)").hasMessageNotContaining(forged.substring(forged.indexOf("sig=")))
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED));
    String readOnly = AccountSas.sign(AzuriteServer.ACCOUNT, AzuriteServer.ACCOUNT_KEY, "r");
    assertThatThrownBy(() -> new AzureBlobClient(settings(PREFIX).withCredential(new AzureCredential.Sas(readOnly)))
        .list()).isInstanceOf(FetchException.class)
        .hasMessage("Azure container 'models' of account 'devstoreaccount1' at " + origin() + " refused the request: "
            + "the SAS token does not allow reading and listing blobs here (AuthorizationPermissionMismatch, HTTP 403)")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED));
  }

  @Test
  void aConnectionStringGivesTheEndpointAndKey() throws IOException {
    AzureConnectionString cs = AzureConnectionString.parse("DefaultEndpointsProtocol=http;AccountName="
        + AzuriteServer.ACCOUNT + ";AccountKey=" + AzuriteServer.ACCOUNT_KEY + ";BlobEndpoint=" + server.endpoint()
        + ";");
    AzureBlobSettings s = new AzureBlobSettings(cs.blobEndpoint().orElseThrow(), AzuriteServer.ACCOUNT,
        AzuriteServer.CONTAINER, PREFIX, cs.credential(), 5000, java.time.Duration.ofSeconds(30));
    assertThat(new AzureBlobClient(s).list()).hasSize(UPLOADED.size());
  }

  @Test
  void aPublicContainerReadsWithoutCredentialsAndAPrivateOneDoesNot() throws IOException {
    AzureBlobSettings anonymous = settings("tiny").withLocation("public-models", "tiny")
        .withCredential(new AzureCredential.Anonymous());
    AzureBlobClient azure = new AzureBlobClient(anonymous);
    assertThat(azure.list()).extracting(RemoteFile::path).containsExactly("config.json");
    try (RemoteStream in = azure.open(RemoteFile.of("config.json", 2), 0)) {
      assertThat(in.readAllBytes()).isEqualTo("{}".getBytes());
    }
    assertThatThrownBy(() -> new AzureBlobClient(anonymous.withLocation(AzuriteServer.CONTAINER, PREFIX)).list())
        .isInstanceOf(FetchException.class)
        .hasMessage("Azure container 'models' of account 'devstoreaccount1' at " + origin() + " rejected a request "
            + "without credentials: the container does not allow anonymous reads; name a Secret with an account key, "
            + "SAS token or connection string in spec.storage.key (AuthorizationFailure, HTTP 403)")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED));
  }

  @Test
  void aMissingContainerOrEmptyPrefixOrMissingBlobIsNamed() {
    assertThatThrownBy(() -> new AzureBlobClient(settings(PREFIX).withLocation("no-such-container", PREFIX)).list())
        .isInstanceOf(FetchException.class)
        .hasMessage("Azure container 'no-such-container' of account 'devstoreaccount1' at " + origin()
            + " does not exist (ContainerNotFound, HTTP 404)");
    assertThatThrownBy(() -> new AzureBlobClient(settings("llama/7b")).list()).isInstanceOf(FetchException.class)
        .hasMessage("no blobs under prefix 'llama/7b/' in Azure container 'models' of account 'devstoreaccount1' at "
            + origin())
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.NOT_FOUND));
    assertThatThrownBy(() -> new AzureBlobClient(settings(PREFIX)).open(RemoteFile.of("missing.bin", 1), 0))
        .hasMessage("blob 'llama/3b/missing.bin' not found in Azure container 'models' of account 'devstoreaccount1' "
            + "at " + origin() + " (BlobNotFound, HTTP 404)");
  }

  private static AzureBlobSettings settings(String prefix) {
    return new AzureBlobSettings(server.endpoint(), AzuriteServer.ACCOUNT, AzuriteServer.CONTAINER, prefix,
        new AzureCredential.SharedKey(AzuriteServer.ACCOUNT_KEY), 5000, java.time.Duration.ofSeconds(30));
  }

  private static String origin() {
    return HttpSender.origin(server.endpoint());
  }

  private static ContentChecksum md5(byte[] content) {
    ContentChecksum.Hasher hasher = ContentChecksum.Algorithm.MD5.newHasher();
    hasher.update(content, 0, content.length);
    return new ContentChecksum(ContentChecksum.Algorithm.MD5, hasher.hex());
  }
}
