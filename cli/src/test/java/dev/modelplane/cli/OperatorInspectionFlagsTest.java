package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.modelsource.Cidr;
import dev.modelplane.operator.modelsource.InspectionPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The {@code --model-inspection-*} flags of {@code modelplane operator} and their defaults. */
class OperatorInspectionFlagsTest {
  private static InspectionPolicy parse(String... args) {
    OperatorCommand command = new OperatorCommand();
    new CommandLine(command).parseArgs(args);
    return command.inspectionPolicy();
  }

  @Test
  void withoutFlagsOnlyHttpsToPublicHostsWithHubRedirects() {
    assertThat(parse()).isEqualTo(InspectionPolicy.defaults());
    assertThat(parse().redirectHosts()).containsExactly("*.hf.co", "*.huggingface.co");
  }

  @Test
  void eachFlagReachesThePolicy() {
    InspectionPolicy p = parse("--model-inspection-allow-http", "--model-inspection-allowed-hosts=models.example,"
        + "*.cdn.example", "--model-inspection-redirect-hosts=",
        "--model-inspection-allowed-cidrs=10.0.0.0/8,fd00::/8");
    assertThat(p.allowHttp()).isTrue();
    assertThat(p.allowedHosts()).containsExactly("models.example", "*.cdn.example");
    assertThat(p.redirectHosts()).isEmpty();
    assertThat(p.allowedCidrs()).containsExactly(Cidr.parse("10.0.0.0/8"), Cidr.parse("fd00::/8"));
  }

  @Test
  void aMalformedRangeIsAUsageErrorBeforeConnecting() {
    MainTest.Result r = MainTest.run("operator", "--kubeconfig", "/nonexistent",
        "--model-inspection-allowed-cidrs=intranet");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--model-inspection-allowed-cidrs: 'intranet' is not a CIDR range",
        "Usage: modelplane operator");
  }
}
