package dev.modelplane.planner.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadFileTest {
  @TempDir
  Path dir;

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private SyntheticWorkload read(String yaml) throws IOException {
    return (SyntheticWorkload) Workloads.file(write("workload.yaml", yaml), null, null, 1);
  }

  private void fails(String yaml, String message) throws IOException {
    Path file = write("workload.yaml", yaml);
    assertThatThrownBy(() -> Workloads.file(file, null, null, 1)).hasMessage(file + ": " + message);
  }

  @Test
  void everyField() throws IOException {
    SyntheticWorkload w = read("""
        # a chat service
        arrival: {process: gamma, rate: 50, cv: 2}
        duration: 10m
        requests: 5000
        prompt: {distribution: normal, mean: 480, stddev: 240}
        output: {fixed: 128}
        prefix: {groups: 8, tokens: 1000, share: 0.6, popularity: zipf, exponent: 1.1}
        priorities: {"0": 0.9, "-1": 0.1}
        lora: {share: 0.1, adapters: [sql, chat]}
        tenants: 4
        seed: 7
        """);
    assertThat(w).isEqualTo(new SyntheticWorkload(new ArrivalProcess.Gamma(50, 2), 600.0, 5000L,
        new LengthDistribution.Normal(480, 240), new LengthDistribution.Fixed(128),
        new PrefixGroups(8, new LengthDistribution.Fixed(1000), 0.6, 1.1),
        new RequestMix(Map.of(0, 0.9, -1, 0.1), 0.1, List.of("sql", "chat"),
            List.of("tenant-1", "tenant-2", "tenant-3", "tenant-4")), 7));
    assertThat(w.describe()).isEqualTo("gamma 50 req/s (cv 2) for 600 s or 5000 requests, prompt N(480,240), "
        + "output 128, 8 prefix groups of 1000 tokens on 60% of requests (Zipf 1.1), 10% LoRA (2 adapters), "
        + "priorities 0: 90%, -1: 10%, 4 tenants");
  }

  @Test
  void scenarioAndShortForms() throws IOException {
    SyntheticWorkload w = read("""
        arrival: {process: constant, rate: 5}
        requests: 10
        scenario: "N(480,240)/(300,150)"
        lora: {adapters: 3}
        tenants: [alice, bob]
        """);
    assertThat(w.arrival()).isEqualTo(new ArrivalProcess.Constant(5));
    assertThat(w.prompt()).isEqualTo(new LengthDistribution.Normal(480, 240));
    assertThat(w.output()).isEqualTo(new LengthDistribution.Normal(300, 150));
    assertThat(w.mix().adapters()).containsExactly("adapter-1", "adapter-2", "adapter-3");
    assertThat(w.mix().loraShare()).isEqualTo(1);
    assertThat(w.mix().tenants()).containsExactly("alice", "bob");
    assertThat(w.seed()).isEqualTo(1);
    assertThat(w.durationSeconds()).isNull();

    SyntheticWorkload p = read("""
        arrival: {rate: 5}
        duration: 90
        scenario: P(2000,500)/200
        """);
    assertThat(p.prefix()).isEqualTo(new PrefixGroups(1, new LengthDistribution.Fixed(2000), 1, 0));
    assertThat(p.arrival()).isEqualTo(new ArrivalProcess.Poisson(5));
    assertThat(p.durationSeconds()).isEqualTo(90);

    SyntheticWorkload lengths = read("""
        arrival: {rate: 5}
        duration: 1h30m
        prompt: "LN(480,240)"
        output: 64
        prefix: {groups: 2, tokens: "U(10,20)", share: 1}
        """);
    assertThat(lengths.prompt()).isEqualTo(new LengthDistribution.LogNormal(480, 240));
    assertThat(lengths.output()).isEqualTo(new LengthDistribution.Fixed(64));
    assertThat(lengths.prefix()).isEqualTo(new PrefixGroups(2, new LengthDistribution.Uniform(10, 20), 1, 0));
    assertThat(lengths.durationSeconds()).isEqualTo(5400);
    assertThat(lengths.mix()).isEqualTo(RequestMix.DEFAULT);
  }

  @Test
  void everyMappingFormOfALength() throws IOException {
    Map<String, LengthDistribution> forms = Map.of(
        "{distribution: fixed, value: 7}", new LengthDistribution.Fixed(7),
        "{distribution: uniform, min: 3, max: 9}", new LengthDistribution.Uniform(3, 9),
        "{distribution: lognormal, mean: 300, stddev: 50}", new LengthDistribution.LogNormal(300, 50),
        "{distribution: empirical, values: [5, 6, 9]}", new LengthDistribution.Empirical(List.of(5, 6, 9)),
        "{empirical: [1, 2]}", new LengthDistribution.Empirical(List.of(1, 2)));
    for (Map.Entry<String, LengthDistribution> form : forms.entrySet()) {
      assertThat(read("arrival: {rate: 1}\nrequests: 1\noutput: 1\nprompt: " + form.getKey()).prompt())
          .as(form.getKey()).isEqualTo(form.getValue());
    }
  }

  @Test
  void priorityKeysMayBeBareNumbers() throws IOException {
    assertThat(read("arrival: {rate: 1}\nrequests: 1\nscenario: D(1,1)\npriorities: {0: 3, -1: 1}\n").mix()
        .priorities()).containsExactly(Map.entry(-1, 1.0), Map.entry(0, 3.0));
  }

  @Test
  void jsonFilesWork() throws IOException {
    Path file = write("w.json", """
        {"arrival": {"rate": 2}, "requests": 3, "scenario": "D(10,5)", "seed": 4}
        """);
    Workload w = Workloads.file(file, null, null, 1);
    assertThat(SyntheticWorkloadTest.all(w)).hasSize(3).allSatisfy(r -> assertThat(r.promptTokens()).isEqualTo(10));
    Path bad = write("bad.json", "{\"arrival\": {\"rate\": 2},\n \"requets\": 3}");
    assertThatThrownBy(() -> Workloads.file(bad, null, null, 1))
        .hasMessage(bad + ": line 2: unknown field \"requets\" (did you mean requests?)");
  }

  @Test
  void rateAndDurationArgumentsOverrideTheFile() throws IOException {
    Path file = write("w.yaml", "arrival: {process: gamma, rate: 5, cv: 3}\nrequests: 100\nscenario: D(10,5)\n");
    SyntheticWorkload w = (SyntheticWorkload) Workloads.file(file, 20.0, Duration.ofSeconds(30), 9);
    assertThat(w.arrival()).isEqualTo(new ArrivalProcess.Gamma(20, 3));
    assertThat(w.durationSeconds()).isEqualTo(30);
    assertThat(w.maxRequests()).isNull();
    assertThat(w.seed()).isEqualTo(9);
    assertThatThrownBy(() -> Workloads.file(file, null, Duration.ZERO, 1))
        .hasMessage("the duration must be more than 0 seconds, got PT0S");
    Path noArrival = write("n.yaml", "duration: 10s\nscenario: D(10,5)\n");
    assertThat(((SyntheticWorkload) Workloads.file(noArrival, 3.0, null, 1)).arrival())
        .isEqualTo(new ArrivalProcess.Poisson(3));
  }

  @Test
  void theSameFileGivesTheSameRequests() throws IOException {
    Path file = write("w.yaml", "arrival: {rate: 50}\nduration: 20s\nscenario: N(480,240)/(300,150)\n"
        + "prefix: {groups: 3, tokens: 100, share: 0.5}\nseed: 3\n");
    assertThat(SyntheticWorkloadTest.all(Workloads.file(file, null, null, 1)))
        .isEqualTo(SyntheticWorkloadTest.all(Workloads.file(file, null, null, 2)));
  }

  @Test
  void unknownFieldsNameTheirLineAndTheNearestName() throws IOException {
    fails("""
        arrival: {rate: 5}
        duration: 10m
        output: 5
        promt: 512
        """, "line 4: unknown field \"promt\" (did you mean prompt?)");
    fails("""
        arrival: {rate: 5}
        duration: 10m
        scenario: D(1,1)
        prefix:
          groups: 8
          tokns: 100
        """, "line 6: unknown field \"prefix.tokns\" (did you mean tokens?)");
    fails("arrival: {rate: 5}\nwhatever: 1\n", "line 2: unknown field \"whatever\" (allowed: arrival, duration, "
        + "lora, output, prefix, priorities, prompt, requests, scenario, seed, tenants)");
    fails("arrival: {rate: 5, burst: 2}\n", "line 1: unknown field \"arrival.burst\" (allowed: cv, process, rate)");
  }

  @Test
  void badValuesNameTheFieldAndWhatIsAllowed() throws IOException {
    String base = "duration: 10m\nscenario: D(1,1)\n";
    fails("arrival: {process: bursty, rate: 5}\n" + base,
        "line 1: arrival.process must be poisson, constant or gamma, got \"bursty\"");
    fails("arrival: {rate: -5}\n" + base, "line 1: arrival.rate must be more than 0 requests/s, got -5");
    fails("arrival: {rate: fast}\n" + base, "line 1: arrival.rate must be a number, got \"fast\"");
    fails("arrival: {process: gamma, rate: 5}\n" + base,
        "line 1: arrival process gamma needs cv (burstiness, e.g. cv: 2)");
    fails("arrival: {rate: 5, cv: 2}\n" + base, "line 1: arrival.cv (burstiness) needs process: gamma");
    fails("arrival: {rate: 5}\nduration: soon\nscenario: D(1,1)\n",
        "line 2: duration must be a duration like 90s, 10m, 1h or a number of seconds, got \"soon\"");
    fails("arrival: {rate: 5}\nduration: -3\nscenario: D(1,1)\n", "line 2: duration must be more than 0 seconds, got -3");
    fails("arrival: {rate: 5}\nrequests: 2.5\nscenario: D(1,1)\n", "line 2: requests must be a whole number, got 2.5");
    fails("arrival: {rate: 5}\nscenario: D(1,1)\n",
        "give duration (e.g. duration: 10m) or requests (e.g. requests: 5000)");
    fails("duration: 10m\nscenario: D(1,1)\n",
        "give arrival (e.g. arrival: {process: poisson, rate: 50}) or a rate");
    fails("arrival: {rate: 5}\nduration: 10m\nscenario: \"N(1,2)\"\n", "line 3: traffic scenario \"N(1,2)\" is not "
        + "one of D(in,out), N(mean_in,stddev_in)/(mean_out,stddev_out), U(min_in,max_in)/(min_out,max_out), "
        + "U(max_in,max_out) or P(prefix,suffix)/out");
    fails("arrival: {rate: 5}\nduration: 10m\nscenario: D(1,1)\nprompt: 5\n",
        "line 4: give either scenario or prompt and output, not both");
    fails("arrival: {rate: 5}\nduration: 10m\nprompt: 5\n", "give output (e.g. output: N(480,240)) or a "
        + "scenario");
    fails("arrival: {rate: 5}\nduration: 10m\nprompt: 0\noutput: 1\n", "line 3: prompt must be at least 1, got 0");
    fails("arrival: {rate: 5}\nduration: 10m\nprompt: N(5)\noutput: 1\n", "line 3: prompt: \"N(5)\" is not a length "
        + "distribution; expected a number, U(min,max), N(mean,stddev) or LN(mean,stddev)");
    fails("arrival: {rate: 5}\nduration: 10m\noutput: 1\nprompt:\n  distribution: uniform\n  min: 9\n  max: 3\n",
        "line 7: prompt.max must be at least min (9), got 3");
    fails("arrival: {rate: 5}\nduration: 10m\noutput: 1\nprompt: {distribution: normal, mean: 9}\n",
        "line 4: prompt (normal) needs stddev");
    fails("arrival: {rate: 5}\nduration: 10m\noutput: 1\nprompt: {distribution: normal, mean: 9, stddev: 1, "
        + "min: 3}\n", "line 4: prompt.min does not go with distribution normal");
    fails("arrival: {rate: 5}\nduration: 10m\noutput: 1\nprompt: {distribution: poisson, mean: 9}\n",
        "line 4: prompt.distribution must be fixed, uniform, normal, lognormal or empirical, got \"poisson\"");
    fails(base + "arrival: {rate: 5}\nprefix: {groups: 2, tokens: 10, share: 1.5}\n",
        "line 4: prefix.share must be between 0 and 1, got 1.5");
    fails(base + "arrival: {rate: 5}\nprefix: {groups: 2, share: 1}\n",
        "line 4: prefix needs tokens (e.g. prefix: {groups: 8, tokens: 1000, share: 0.6})");
    fails(base + "arrival: {rate: 5}\nprefix: {groups: 2, tokens: 5, share: 1, popularity: pareto}\n",
        "line 4: prefix.popularity must be uniform or zipf, got \"pareto\"");
    fails(base + "arrival: {rate: 5}\nprefix: {groups: 2, tokens: 5, share: 1, exponent: 2}\n",
        "line 4: prefix.exponent needs popularity: zipf");
    fails(base + "arrival: {rate: 5}\npriorities: {high: 1}\n",
        "line 4: priorities: \"high\" is not a whole-number priority");
    fails(base + "arrival: {rate: 5}\npriorities:\n  \"0\": 1\n  \"-1\": 0\n", "line 6: priorities.-1 needs a weight > 0");
    fails(base + "arrival: {rate: 5}\nlora: {share: 0.5}\n", "line 4: lora needs adapters: a list of names or a count");
    fails(base + "arrival: {rate: 5}\nlora: {adapters: [a, a]}\n",
        "line 4: lora.adapters must be a count or a list of distinct, non-empty names");
    fails(base + "arrival: {rate: 5}\ntenants: 0\n", "line 4: tenants must be at least 1, got 0");
    fails(base + "arrival: {rate: 5}\nseed: x\n", "line 4: seed must be a whole number, got \"x\"");
    fails(base + "arrival: {rate: 5}\nscenario: P(10,5)/5\n",
        "line 4: duplicate field \"scenario\" (first on line 2)");
    fails("duration: 10m\narrival: {rate: 5}\nscenario: P(10,5)/5\nprefix: {groups: 1, tokens: 5, share: 1}\n",
        "line 4: scenario P(10,5)/5 already has a shared prefix; drop prefix");
  }

  @Test
  void unreadableFilesSaySo() throws IOException {
    fails("arrival: {rate: 5\nduration: 10m\n", "line 2: not valid YAML: while parsing a flow mapping");
    fails("", "the workload file is empty");
    fails("just text\n", "expected a mapping of fields (arrival, duration, lora, output, prefix, priorities, prompt, "
        + "requests, scenario, seed, tenants), got \"just text\"");
    fails("arrival: 5\n", "line 1: arrival must be a mapping of cv, process, rate, got 5");
    Path missing = dir.resolve("missing.yaml");
    assertThatThrownBy(() -> Workloads.file(missing, null, null, 1)).hasMessageStartingWith(missing
        + ": cannot read the workload file (");
  }

  @Test
  void durations() {
    assertThat(WorkloadFile.parseDuration("90")).isEqualTo(Duration.ofSeconds(90));
    assertThat(WorkloadFile.parseDuration("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(WorkloadFile.parseDuration("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(WorkloadFile.parseDuration("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(WorkloadFile.parseDuration("PT10M")).isEqualTo(Duration.ofMinutes(10));
    assertThat(SyntheticWorkloadTest.all(Workloads.poisson(1, 1, 1, Duration.ofSeconds(100), 1)).size())
        .isCloseTo(100, within(30));
    assertThatThrownBy(() -> WorkloadFile.parseDuration("10 minutes"))
        .hasMessage("\"10 minutes\" is not a duration (e.g. 90s, 10m, 1h)");
  }
}
