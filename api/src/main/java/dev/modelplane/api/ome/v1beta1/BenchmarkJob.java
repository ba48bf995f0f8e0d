package dev.modelplane.api.ome.v1beta1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One load-test run against an inference endpoint. The operator starts a single Kubernetes Job (named like the
 * BenchmarkJob, never retried) running a genai-bench compatible benchmark: for every combination of traffic
 * scenario and concurrency level it sends requests until the time or request limit of the iteration is reached, and
 * it writes the measurements to the output location.
 */
@Group(BaseModel.GROUP)
@Version(BaseModel.VERSION)
@Kind("BenchmarkJob")
@Plural("benchmarkjobs")
@Singular("benchmarkjob")
@Categories("modelplane")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "Status", jsonPath = ".status.state", type = AdditionalPrinterColumn.Type.STRING)
public class BenchmarkJob extends CustomResource<BenchmarkJobSpec, BenchmarkJobStatus> implements Namespaced {
}
