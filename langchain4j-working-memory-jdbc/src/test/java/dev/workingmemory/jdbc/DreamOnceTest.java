package dev.workingmemory.jdbc;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.dream.DreamReport;
import org.junit.jupiter.api.RepeatedTest;

import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Two instances on one database asking for the dream of one user at the same moment: one dream runs. */
class DreamOnceTest extends DatabaseTest {

    @RepeatedTest(3)
    void should_run_the_dream_of_that_user_once_when_both_ask() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (WorkingMemoryProvider instanceA = WorkingMemoryProvider.builder()
                .store(new JdbcWorkingMemoryStore(database.dataSource())).build();
             WorkingMemoryProvider instanceB = WorkingMemoryProvider.builder()
                     .store(new JdbcWorkingMemoryStore(database.dataSource())).build()) {
            instanceA.memory("alice").notes().note("Alice's dog is a beagle called Biscuit", 0.8, null);
            instanceB.memory("alice").notes().note("Alice ships the API migration on March 20th", 0.8, null);

            CyclicBarrier together = new CyclicBarrier(2);
            Future<DreamReport> a = threads.submit(() -> {
                together.await();
                return instanceA.dream("alice");
            });
            Future<DreamReport> b = threads.submit(() -> {
                together.await();
                return instanceB.dream("alice");
            });
            List<DreamReport> reports = List.of(a.get(2, TimeUnit.MINUTES), b.get(2, TimeUnit.MINUTES));

            assertThat(reports).filteredOn(DreamReport::committed).as(reports.toString()).hasSize(1);
            // the other one found the lease taken, or (when it came after) nothing left to dream
            assertThat(reports).filteredOn(report -> !report.committed()).extracting(DreamReport::reason)
                    .singleElement().satisfies(reason -> assertThat(reason)
                            .containsAnyOf("Another dream of this resource is running", "Nothing new since the last dream"));
            assertThat(instanceA.dreamEngine().history("alice")).hasSize(1);
            assertThat(instanceB.memory("alice").notes().notes()).isEmpty();
            assertThat(instanceB.dreamEngine().state("alice").orElseThrow()).contains("Biscuit", "March 20th");
        } finally {
            threads.shutdownNow();
        }
    }
}
