// Deep copies of scheduler state for simulation snapshots (Gpu::clone). Schedulers of one SM
// may share an object (the RLWS agent) and may keep pointers into the simulation (the GPU-wide
// counters). While a CloneContext is alive on a thread, WarpScheduler::clone() calls made on
// that thread copy each shared object once, so the copies of an SM's schedulers share one copy
// of it, and translate pointers the context knows about to the corresponding copies.
#pragma once
#include <memory>
#include <utility>
#include <vector>

namespace warpsim {

class CloneContext {
 public:
  CloneContext();   // becomes the thread's current context
  ~CloneContext();  // restores the previous one
  CloneContext(const CloneContext&) = delete;
  CloneContext& operator=(const CloneContext&) = delete;

  // `copy` stands for `original` in the copy being made.
  void map(const void* original, void* copy) { ptrs_.emplace_back(original, copy); }
  // The copy of `original`, or null when unknown.
  void* find(const void* original) const {
    for (const auto& [o, c] : ptrs_)
      if (o == original) return c;
    return nullptr;
  }
  std::shared_ptr<void> find_shared(const void* original) const {
    for (const auto& [o, c] : shared_)
      if (o == original) return c;
    return nullptr;
  }
  void map_shared(const void* original, std::shared_ptr<void> copy) { shared_.emplace_back(original, std::move(copy)); }

  static CloneContext* current();

 private:
  std::vector<std::pair<const void*, void*>> ptrs_;
  std::vector<std::pair<const void*, std::shared_ptr<void>>> shared_;
  CloneContext* prev_;
};

// A deep copy of `p`: within a CloneContext, every call for the same object returns the same
// copy; without one, a fresh private copy. Null stays null.
template <class T>
std::shared_ptr<T> clone_shared(const std::shared_ptr<T>& p) {
  if (!p) return nullptr;
  CloneContext* ctx = CloneContext::current();
  if (ctx)
    if (std::shared_ptr<void> c = ctx->find_shared(p.get())) return std::static_pointer_cast<T>(c);
  auto copy = std::make_shared<T>(*p);
  if (ctx) ctx->map_shared(p.get(), copy);
  return copy;
}

// The object that stands for `*p` in the copy being made: `p` itself when no context is active
// or the context does not know it.
template <class T>
T* clone_remap(T* p) {
  CloneContext* ctx = CloneContext::current();
  if (!ctx || !p) return p;
  void* c = ctx->find(p);
  return c ? static_cast<T*>(c) : p;
}

// A shared_ptr whose copies are deep (clone_shared): a member of this type makes a scheduler's
// defaulted copy constructor snapshot-correct.
template <class T>
class SnapshotShared {
 public:
  SnapshotShared() = default;
  SnapshotShared(std::shared_ptr<T> p) : p_(std::move(p)) {}  // NOLINT: implicit on purpose
  SnapshotShared(const SnapshotShared& o) : p_(clone_shared(o.p_)) {}
  SnapshotShared& operator=(const SnapshotShared& o) {
    if (this != &o) p_ = clone_shared(o.p_);
    return *this;
  }
  SnapshotShared(SnapshotShared&&) noexcept = default;
  SnapshotShared& operator=(SnapshotShared&&) noexcept = default;
  T* operator->() const { return p_.get(); }
  T& operator*() const { return *p_; }
  T* get() const { return p_.get(); }
  const std::shared_ptr<T>& shared() const { return p_; }

 private:
  std::shared_ptr<T> p_;
};

// A pointer to part of the object that holds it (a lookup into its own containers, cached): a
// copy starts null and looks it up again in its own containers, so a scheduler's defaulted copy
// constructor never keeps a pointer into the original, which a snapshot may outlive.
template <class T>
class SelfPointer {
 public:
  SelfPointer() = default;
  SelfPointer(const SelfPointer&) {}
  SelfPointer& operator=(const SelfPointer&) {
    p_ = nullptr;
    return *this;
  }
  T* get() const { return p_; }
  void set(T* p) { p_ = p; }
  void reset() { p_ = nullptr; }

 private:
  T* p_ = nullptr;
};

}  // namespace warpsim
