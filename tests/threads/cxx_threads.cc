// C++ threads: std::thread, std::async, std::mutex, std::condition_variable
// and futures. The output does not depend on the interleaving.
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <future>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

int main()
{
	std::atomic<long> total{0};
	std::vector<std::thread> v;
	for (int i = 0; i < 4; i++)
		v.emplace_back([i, &total] {
			long s = 0;
			for (long k = 0; k < 50000; k++)
				s += k % (i + 2);
			total += s;
		});
	for (auto &t : v)
		t.join();
	std::printf("std::thread: %ld\n", total.load());

	std::vector<std::future<long>> f;
	for (int i = 1; i <= 3; i++)
		f.push_back(std::async(std::launch::async, [i] {
			long s = 0;
			for (int k = 1; k <= 1000 * i; k++)
				s += k;
			return s;
		}));
	for (auto &x : f)
		std::printf("std::async: %ld\n", x.get());

	// a producer and a consumer through a queue
	std::mutex m;
	std::condition_variable cv;
	std::queue<int> q;
	bool done = false;
	long got = 0;
	std::thread consumer([&] {
		std::unique_lock<std::mutex> l(m);
		for (;;) {
			cv.wait(l, [&] { return !q.empty() || done; });
			while (!q.empty()) {
				got += q.front();
				q.pop();
			}
			if (done)
				return;
		}
	});
	for (int i = 1; i <= 500; i++) {
		std::lock_guard<std::mutex> g(m);
		q.push(i);
		cv.notify_one();
	}
	{
		std::lock_guard<std::mutex> g(m);
		done = true;
	}
	cv.notify_one();
	consumer.join();
	std::printf("queue: %ld\n", got);

	std::promise<int> p;
	std::future<int> pf = p.get_future();
	std::thread setter([&p] { p.set_value(42); });
	std::printf("promise: %d\n", pf.get());
	setter.join();
	return 0;
}
