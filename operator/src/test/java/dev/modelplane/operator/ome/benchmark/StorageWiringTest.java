package dev.modelplane.operator.ome.benchmark;

import static dev.modelplane.operator.ome.benchmark.BenchmarkFixtures.argv;
import static dev.modelplane.operator.ome.benchmark.BenchmarkFixtures.benchmarkContainer;
import static dev.modelplane.operator.ome.benchmark.BenchmarkFixtures.urlBenchmark;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.operator.OperatorSettings;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Where results go, per output-location scheme: genai-bench's upload flags, credentials only by reference. */
class StorageWiringTest {
  private static final BenchmarkTarget TARGET = new BenchmarkTarget("http://llm", "openai", null, "m", null,
      List.of());

  private static Job build(String outputLocation) {
    String spec = """
        endpoint: {endpoint: {url: "http://llm", apiFormat: openai, modelName: m}}
        task: text-to-text
        maxTimePerIteration: 1
        maxRequestsPerIteration: 1
        outputLocation: %s
        """.formatted(outputLocation);
    return BenchmarkJobBuilder.build(BenchmarkFixtures.benchmark("store", spec), TARGET, OperatorSettings.defaults());
  }

  /** The arguments between the traffic scenarios and the experiment directory. */
  private static String storageArgs(Job job) {
    List<String> argv = argv(job);
    int from = argv.lastIndexOf("--traffic-scenario") + 2;
    return String.join(" ", argv.subList(from, argv.indexOf("--experiment-base-dir")));
  }

  static Stream<Arguments> schemes() {
    return Stream.of(
        Arguments.of("{storageUri: \"pvc://results/nightly/runs\"}", ""),
        Arguments.of("{storageUri: \"oci://n/tenancy/b/bench/o/results/llama\", parameters: {auth: instance_principal,"
            + " region: us-ashburn-1, profile: DEFAULT}}",
            "--upload-results --storage-provider oci --namespace tenancy --storage-bucket bench --storage-prefix "
                + "results/llama --storage-auth-type instance_principal --profile DEFAULT --region us-ashburn-1"),
        Arguments.of("{storageUri: \"oci://n/tenancy/b/bench/o/results\", key: oci-cred}",
            "--upload-results --storage-provider oci --namespace tenancy --storage-bucket bench --storage-prefix "
                + "results --config-file /etc/oci/config"),
        Arguments.of("{storageUri: \"s3://bench@us-west-2/results\", key: aws}",
            "--upload-results --storage-provider aws --storage-bucket bench --storage-prefix results "
                + "--storage-aws-region us-west-2"),
        Arguments.of("{storageUri: \"s3://bench/results\", parameters: {aws_region: eu-west-1, aws_profile: ci}}",
            "--upload-results --storage-provider aws --storage-bucket bench --storage-prefix results "
                + "--storage-aws-profile ci --storage-aws-region eu-west-1"),
        Arguments.of("{storageUri: \"az://account/container/runs\", key: azure}",
            "--upload-results --storage-provider azure --storage-bucket container --storage-prefix runs "
                + "--storage-azure-account-name account"),
        Arguments.of("{storageUri: \"gs://bench/runs\", key: gcp, parameters: {gcp_project_id: p1}}",
            "--upload-results --storage-provider gcp --storage-bucket bench --storage-prefix runs "
                + "--storage-gcp-project-id p1 --storage-gcp-credentials-path /etc/gcp/credentials.json"),
        Arguments.of("{storageUri: \"github://org/bench-results\", key: gh}",
            "--upload-results --storage-provider github --github-owner org --github-repo bench-results"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("schemes")
  void eachSchemeGetsGenaiBenchsStorageFlags(String outputLocation, String expected) {
    assertThat(storageArgs(build(outputLocation))).isEqualTo(expected);
  }

  @Test
  void aClaimIsTheResultsVolumeWithItsPathAsSubPath() {
    Job job = build("{storageUri: \"pvc://results/nightly/runs\"}");
    assertThat(job.getSpec().getTemplate().getSpec().getVolumes()).filteredOn(v -> v.getName().equals("results"))
        .singleElement().satisfies(v -> assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("results"));
    assertThat(benchmarkContainer(job).getVolumeMounts()).filteredOn(m -> m.getName().equals("results"))
        .singleElement().satisfies(m -> assertThat(m.getSubPath()).isEqualTo("nightly/runs"));
  }

  static Stream<Arguments> secretVariables() {
    return Stream.of(
        Arguments.of("{storageUri: \"s3://bench/results\", key: aws}", "aws",
            List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")),
        Arguments.of("{storageUri: \"az://account/container/runs\", key: azure}", "azure",
            List.of("AZURE_STORAGE_CONNECTION_STRING")),
        Arguments.of("{storageUri: \"github://org/bench-results\", key: gh}", "gh", List.of("GITHUB_TOKEN")));
  }

  /** genai-bench's storage options read these variables themselves: the command line never names them. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("secretVariables")
  void uploadsRunFromAnEmptyDirAndCredentialsComeFromTheSecretAsEnvironmentOnly(String outputLocation,
      String secret, List<String> names) {
    Job job = build(outputLocation);
    assertThat(job.getSpec().getTemplate().getSpec().getVolumes()).filteredOn(v -> v.getName().equals("results"))
        .singleElement().satisfies(v -> assertThat(v.getEmptyDir()).isNotNull());
    List<EnvVar> env = benchmarkContainer(job).getEnv();
    for (String name : names) {
      assertThat(env).filteredOn(e -> e.getName().equals(name)).singleElement().satisfies(e -> {
        assertThat(e.getValue()).isNull();
        assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo(secret);
        assertThat(e.getValueFrom().getSecretKeyRef().getKey()).isEqualTo(name);
      });
      assertThat(argv(job)).noneMatch(a -> a.contains(name));
    }
    assertThat(argv(job)).noneMatch(a -> a.contains("$(") || a.equals("--storage-aws-access-key-id")
        || a.equals("--storage-aws-secret-access-key") || a.equals("--storage-azure-connection-string")
        || a.equals("--github-token"));
  }

  @Test
  void fileCredentialsAreMountedFromTheSecret() {
    Job oci = build("{storageUri: \"oci://n/t/b/b/o/p\", key: oci-cred}");
    assertThat(oci.getSpec().getTemplate().getSpec().getVolumes()).extracting(Volume::getSecret)
        .anySatisfy(s -> assertThat(s.getSecretName()).isEqualTo("oci-cred"));
    assertThat(benchmarkContainer(oci).getVolumeMounts()).extracting(VolumeMount::getMountPath).contains("/etc/oci");
    Job gcs = build("{storageUri: \"gs://b/p\", key: gcp}");
    assertThat(benchmarkContainer(gcs).getVolumeMounts()).extracting(VolumeMount::getMountPath).contains("/etc/gcp");
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        Arguments.of("{storageUri: \"s3://b/p\", parameters: {aws_secret_access_key: abc}}",
            "outputLocation.parameters.aws_secret_access_key holds a secret: put it into the Secret named by "
                + "outputLocation.key instead"),
        Arguments.of("{storageUri: \"github://o/r\", parameters: {github_token: t}}",
            "outputLocation.parameters.github_token holds a secret: put it into the Secret named by "
                + "outputLocation.key instead"),
        Arguments.of("{storageUri: \"oci://bucket/prefix\"}",
            "outputLocation oci://bucket/prefix is not a valid URI: expected "
                + "oci://n/<namespace>/b/<bucket>/o/<prefix>"),
        Arguments.of("{storageUri: \"pvc://other:results/x\"}",
            "outputLocation pvc://other:results/x names a claim in namespace other: the claim must be in the "
                + "benchmark's namespace bench"),
        Arguments.of("{storageUri: \"hf://org/results\"}",
            "outputLocation hf://org/results is not supported: use pvc://, oci://, s3://, az://, gs:// or github://"),
        Arguments.of("{storageUri: \"local:///results\"}",
            "outputLocation local:///results is not supported: use pvc://, oci://, s3://, az://, gs:// or github://"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void anUnusableLocationIsRefusedWithTheReason(String outputLocation, String message) {
    assertThatThrownBy(() -> build(outputLocation)).isInstanceOf(BenchmarkConfigException.class).hasMessage(message);
  }

  @Test
  void theReportLocationIsTheOutputUriFollowedByTheFolder() {
    assertThat(BenchmarkJobBuilder.reportLocation(urlBenchmark("resultFolderName: r1\n")))
        .isEqualTo("pvc://results/runs/r1");
  }
}
