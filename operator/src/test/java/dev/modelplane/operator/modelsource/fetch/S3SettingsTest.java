package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class S3SettingsTest {
  private static final URI ENDPOINT = URI.create("http://127.0.0.1:9000");
  private static final String SECRET = "very-secret-key-value";

  @Test
  void normalizesThePrefixAndHidesSecrets() {
    S3Settings settings = S3Settings.of(URI.create("http://127.0.0.1:9000/"), "models", "/llama/3b/", "AK", SECRET)
        .withSessionToken("session-token-value");
    assertThat(settings.endpoint()).isEqualTo(ENDPOINT);
    assertThat(settings.prefix()).isEqualTo("llama/3b");
    assertThat(settings.keyPrefix()).isEqualTo("llama/3b/");
    assertThat(settings.region()).isEqualTo("us-east-1");
    assertThat(settings.toString()).doesNotContain(SECRET).doesNotContain("session-token-value")
        .contains("secretKey=<set>", "sessionToken=<set>");
    assertThat(S3Settings.of(ENDPOINT, "models", "", null, null).signed()).isFalse();
    assertThat(S3Settings.of(ENDPOINT, "models", null, "", "").keyPrefix()).isEmpty();
  }

  @Test
  void rejectsBadInputWithMessages() {
    S3Settings ok = S3Settings.of(ENDPOINT, "models", "p", "AK", SECRET);
    assertThatThrownBy(() -> S3Settings.of(URI.create("s3://bucket"), "models", "p", "AK", SECRET))
        .hasMessage("S3 endpoint must be an http(s) URL with a host, got 's3://bucket'");
    assertThatThrownBy(() -> S3Settings.of(URI.create("http://h/?x=1"), "models", "p", "AK", SECRET))
        .hasMessage("S3 endpoint must not have a query or user info, got http://h");
    assertThatThrownBy(() -> ok.withLocation("Bad_Bucket", "p"))
        .hasMessage("S3 bucket name must be 3-63 lowercase letters, digits, '.' or '-', got 'Bad_Bucket'");
    assertThatThrownBy(() -> ok.withLocation("a..b", "p"))
        .hasMessage("S3 bucket name must be 3-63 lowercase letters, digits, '.' or '-', got 'a..b'");
    assertThatThrownBy(() -> ok.withRegion("US East"))
        .hasMessage("S3 region must be lowercase letters, digits and '-', got 'US East'");
    assertThatThrownBy(() -> ok.withCredentials("AK", ""))
        .hasMessage("S3 credentials need both an access key and a secret key (or neither, for a public bucket); "
            + "only the access key is set");
    assertThatThrownBy(() -> ok.withCredentials("", SECRET))
        .hasMessage("S3 credentials need both an access key and a secret key (or neither, for a public bucket); "
            + "only the secret key is set")
        .hasMessageNotContaining(SECRET);
    assertThatThrownBy(() -> ok.withPageSize(0)).hasMessage("S3 list page size must be 1 to 1000, got 0");
    assertThatThrownBy(() -> ok.withTimeout(Duration.ofSeconds(-1))).hasMessage("timeout must be positive, got PT-1S");
  }

  @Test
  void readsListPagesAndErrors() throws FetchException {
    S3Xml.ListPage page = S3Xml.listPage("""
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>models</Name>
          <IsTruncated>true</IsTruncated><NextContinuationToken>tok+/=</NextContinuationToken>
          <Contents><Key>p/a b.bin</Key><Size>12</Size><ETag>&quot;abc&quot;</ETag></Contents>
          <Contents><Key>p/c</Key><Size>0</Size><ETag>"def"</ETag></Contents>
        </ListBucketResult>""");
    assertThat(page.entries()).containsExactly(new S3Xml.Entry("p/a b.bin", 12, "abc"), new S3Xml.Entry("p/c", 0,
        "def"));
    assertThat(page.truncated()).isTrue();
    assertThat(page.nextContinuationToken()).isEqualTo("tok+/=");
    assertThat(S3Xml.error("<Error><Code>NoSuchBucket</Code><Message>gone</Message></Error>"))
        .isEqualTo(new S3Xml.Error("NoSuchBucket", "gone"));
    assertThat(S3Xml.error("not xml")).isEqualTo(new S3Xml.Error("", ""));
    assertThatThrownBy(() -> S3Xml.listPage("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>"))
        .isInstanceOf(FetchException.class).hasMessageStartingWith("the S3 answer is not well-formed XML");
    assertThatThrownBy(() -> S3Xml.listPage("<Error/>"))
        .hasMessage("the S3 list answer is not a ListBucketResult");
    assertThatThrownBy(() -> S3Xml.listPage("<ListBucketResult><Contents><Key>k</Key><Size>x</Size></Contents>"
        + "</ListBucketResult>")).hasMessage("the S3 list answer has key 'k' with size 'x'");
  }

  @Test
  void errorMessagesNameTheBucketAndNeverTheSecret() {
    S3Settings s = S3Settings.of(ENDPOINT, "models", "llama", "AK", SECRET);
    assertThat(S3Errors.of(403, new S3Xml.Error("SignatureDoesNotMatch", "x"), s, null).getMessage())
        .isEqualTo("S3 bucket 'models' at http://127.0.0.1:9000 rejected the request signature: the secret key "
            + "does not match access key 'AK' (SignatureDoesNotMatch, HTTP 403)");
    assertThat(S3Errors.of(404, new S3Xml.Error("NoSuchBucket", ""), s, null).getMessage())
        .isEqualTo("S3 bucket 'models' at http://127.0.0.1:9000 does not exist (NoSuchBucket, HTTP 404)");
    assertThat(S3Errors.of(404, new S3Xml.Error("NoSuchKey", ""), s, "w.bin").getMessage())
        .isEqualTo("object 'llama/w.bin' not found in S3 bucket 'models' at http://127.0.0.1:9000 (NoSuchKey, "
            + "HTTP 404)");
    assertThat(S3Errors.of(403, new S3Xml.Error("AccessDenied", ""), s, null).getMessage())
        .isEqualTo("S3 bucket 'models' at http://127.0.0.1:9000 denied access to access key 'AK' (check the "
            + "credentials and the bucket policy) (AccessDenied, HTTP 403)");
    assertThat(S3Errors.of(503, new S3Xml.Error("SlowDown", ""), s, null).retryable()).isTrue();
    assertThat(S3Errors.of(301, new S3Xml.Error("PermanentRedirect", ""), s, null).getMessage())
        .isEqualTo("S3 bucket 'models' at http://127.0.0.1:9000 is in another region than 'us-east-1' or needs "
            + "another endpoint (PermanentRedirect, HTTP 301)");
  }
}
