package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Shared Key signatures against values Azure's own Python SDK (azure-storage-blob 12.31) computes for the same
 * requests with the emulator's published key, and the string to sign as Azure documents it.
 */
class SharedKeySignerTest {
  private static final String KEY = AzureConnectionString.DEV_ACCOUNT_KEY;
  private static final String DATE = "Sat, 07 Nov 2026 09:05:01 GMT";

  @Test
  void signsARangedGetOfAHostStyleBlobAsTheSdkDoes() {
    URI uri = URI.create("https://myaccount.blob.core.windows.net/models/llama/3b/part%200%20%28copy%29%2B%C3%BC.bin");
    Map<String, String> headers = Map.of("x-ms-date", DATE, "x-ms-version", "2021-08-06", "x-ms-range", "bytes=100-");
    SharedKeySigner signer = new SharedKeySigner("myaccount", KEY);
    assertThat(signer.stringToSign("GET", uri, headers)).isEqualTo("GET\n\n\n\n\n\n\n\n\n\n\n\n"
        + "x-ms-date:" + DATE + "\nx-ms-range:bytes=100-\nx-ms-version:2021-08-06\n"
        + "/myaccount/models/llama/3b/part%200%20%28copy%29%2B%C3%BC.bin");
    assertThat(signer.authorization("GET", uri, headers))
        .isEqualTo("SharedKey myaccount:46kJyUD9Z+YAWIoCTh0ZONHw5UOCWRz1xbvET6ipscs=");
  }

  @Test
  void signsAPathStyleListingWithTheAccountTwiceAndTheQueryDecodedAndSorted() {
    URI uri = URI.create("http://127.0.0.1:10000/devstoreaccount1/models?restype=container&comp=list"
        + "&prefix=llama%2F3b%2F&maxresults=4&include=metadata&marker=llama%2F3b%2Fx");
    Map<String, String> headers = Map.of("x-ms-date", DATE, "x-ms-version", "2021-08-06");
    SharedKeySigner signer = new SharedKeySigner("devstoreaccount1", KEY);
    assertThat(signer.stringToSign("GET", uri, headers)).endsWith("\n/devstoreaccount1/devstoreaccount1/models"
        + "\ncomp:list\ninclude:metadata\nmarker:llama/3b/x\nmaxresults:4\nprefix:llama/3b/\nrestype:container");
    assertThat(signer.authorization("GET", uri, headers))
        .isEqualTo("SharedKey devstoreaccount1:4iiE0+lQZb+7C5Q8mfyBezBQ9+P6OJbUZxstqtOUbZU=");
  }

  @Test
  void signsAPutWithItsLengthAndContentType() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("X-MS-Date", DATE);
    headers.put("x-ms-version", "2021-08-06");
    headers.put("x-ms-blob-type", "BlockBlob");
    headers.put("Content-Length", "12");
    headers.put("Content-Type", "application/octet-stream");
    URI uri = URI.create("http://127.0.0.1:10000/devstoreaccount1/models/a.bin");
    SharedKeySigner signer = new SharedKeySigner("devstoreaccount1", KEY);
    assertThat(signer.stringToSign("PUT", uri, headers)).startsWith("PUT\n\n\n12\n\napplication/octet-stream\n");
    assertThat(signer.authorization("PUT", uri, headers))
        .isEqualTo("SharedKey devstoreaccount1:rr0x+v89Wqs5QmumgYG3a2tlLpfOP7dxQzsAnd4juhA=");
  }

  @Test
  void aZeroContentLengthIsSignedAsEmptyAndHeaderWhitespaceFolded() {
    SharedKeySigner signer = new SharedKeySigner("acct", KEY);
    URI uri = URI.create("https://acct.blob.core.windows.net/c?restype=container");
    assertThat(signer.stringToSign("put", uri, Map.of("Content-Length", "0", "x-ms-meta-a", "  x   y ")))
        .isEqualTo("PUT\n\n\n\n\n\n\n\n\n\n\n\nx-ms-meta-a:x y\n/acct/c\nrestype:container");
  }

  @Test
  void datesHaveTwoDigitDaysAndTheKeyIsNeverShown() {
    assertThat(SharedKeySigner.httpDate(Instant.parse("2026-11-07T09:05:01Z"))).isEqualTo(DATE);
    assertThat(new SharedKeySigner("acct", KEY).toString()).doesNotContain(KEY);
    assertThatThrownBy(() -> new SharedKeySigner("acct", "not base64!")).hasMessage("the Azure account key is not "
        + "base64 (it is shown as base64 in the portal and in connection strings)");
  }
}
