package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AzureConnectionStringTest {
  private static final String KEY = AzureConnectionString.DEV_ACCOUNT_KEY;

  @Test
  void anAccountKeyStringMakesTheEndpointFromProtocolAccountAndSuffix() {
    AzureConnectionString cs = AzureConnectionString.parse("DefaultEndpointsProtocol=https;AccountName=myaccount;"
        + "AccountKey=" + KEY + ";EndpointSuffix=core.chinacloudapi.cn");
    assertThat(cs.accountName()).contains("myaccount");
    assertThat(cs.credential()).isEqualTo(new AzureCredential.SharedKey(KEY));
    assertThat(cs.blobEndpoint()).contains(URI.create("https://myaccount.blob.core.chinacloudapi.cn"));
    assertThat(cs.toString()).doesNotContain(KEY);
  }

  @Test
  void aSasStringWithABlobEndpointNeedsNoAccountName() {
    AzureConnectionString cs = AzureConnectionString.parse("BlobEndpoint=https://myaccount.blob.core.windows.net/;"
        + "SharedAccessSignature=sv=2021-08-06&ss=b&srt=co&sp=rl&se=2030-01-01T00:00:00Z&sig=abc%3D");
    assertThat(cs.accountName()).isEmpty();
    assertThat(cs.credential()).isEqualTo(new AzureCredential.Sas(
        "sv=2021-08-06&ss=b&srt=co&sp=rl&se=2030-01-01T00:00:00Z&sig=abc%3D"));
    assertThat(cs.blobEndpoint()).contains(URI.create("https://myaccount.blob.core.windows.net/"));
    assertThat(cs.toString()).doesNotContain("sig=");
  }

  @Test
  void settingNamesIgnoreCaseAndTheDevelopmentStorageIsTheEmulator() {
    assertThat(AzureConnectionString.parse("accountname=acct;accountkey=" + KEY).blobEndpoint())
        .contains(URI.create("https://acct.blob.core.windows.net"));
    AzureConnectionString dev = AzureConnectionString.parse("UseDevelopmentStorage=true");
    assertThat(dev.accountName()).contains("devstoreaccount1");
    assertThat(dev.blobEndpoint()).contains(URI.create("http://127.0.0.1:10000/devstoreaccount1"));
    assertThat(dev.credential()).isInstanceOf(AzureCredential.SharedKey.class);
  }

  @Test
  void anAccountNameAloneIsAnonymous() {
    assertThat(AzureConnectionString.parse("AccountName=acct").credential())
        .isEqualTo(new AzureCredential.Anonymous());
    assertThat(AzureConnectionString.parse("AccountName=acct").blobEndpoint()).isNotEqualTo(Optional.empty());
  }

  @Test
  void badStringsAreNamedWithoutTheirValues() {
    assertThatThrownBy(() -> AzureConnectionString.parse("AccountName=acct;" + "secret-without-equals"))
        .hasMessage("the Azure connection string's part 2 is not Name=value");
    assertThatThrownBy(() -> AzureConnectionString.parse("AccountKey=" + KEY))
        .hasMessage("the Azure connection string has an AccountKey but no AccountName");
    assertThatThrownBy(() -> AzureConnectionString.parse("AccountName=acct;AccountKey=%%%"))
        .hasMessageNotContaining("%%%").hasMessageContaining("not base64");
    assertThatThrownBy(() -> AzureConnectionString.parse("SharedAccessSignature=sv=2021-08-06"))
        .hasMessageContaining("no sig= parameter");
    assertThatThrownBy(() -> AzureConnectionString.parse("AccountName=acct;BlobEndpoint=not a url"))
        .hasMessage("the Azure connection string's BlobEndpoint does not make an http(s) URL with a host and no query");
  }
}
