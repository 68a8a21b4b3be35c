// SPDX-License-Identifier: GPL-2.0
/*
 * fpgamr-dma.c - DMA buffers of the fpgamr accelerator (/dev/fpgamr-dmaK)
 *
 * Buffers are physically contiguous (the DMA API takes them from CMA where
 * the kernel has it), mapped cacheable into user space, and kept coherent
 * with the accelerator by explicit sync ioctls, unless the port is coherent.
 *
 * Lifetime: a buffer is referenced by the handle table of the open file that
 * allocated it, by every VMA that maps it and by the job that uses it.  Its
 * memory goes back to the DMA API when the last of those references is
 * dropped, so neither FREE nor close can pull memory out from under a live
 * mapping, and the device is stopped (and seen idle) before a job's
 * reference is dropped.
 *
 * Jobs: user space names buffers, offsets and counts (FPGAMR_IOC_SUBMIT);
 * the driver checks them against the buffers of the file and writes the
 * bus addresses into the kernel page of the register window, which is never
 * mapped to user space (register map 3).
 *
 * Caps: every buffer is charged to its device (max_dev_bytes) and to the
 * uid that allocated it, over all devices (max_user_bytes).
 */
#include <linux/cred.h>
#include <linux/fdtable.h>
#include <linux/iopoll.h>
#include <linux/overflow.h>

#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include <linux/fpgamr.h>

#include "fpgamr-priv.h"

struct fpgamr_buf {
	struct kref ref;
	struct fpgamr_dev *fdev;
	struct page *page;
	dma_addr_t dma;
	size_t size;
	kuid_t uid;
};

/* a device that takes longer to take a START or to stop is broken */
#define FPGAMR_STOP_TIMEOUT_US	(5 * USEC_PER_SEC)

/* bytes charged per device (fpgamr_dev.charged) and per uid (value entries) */
static DEFINE_MUTEX(fpgamr_quota_lock);
static DEFINE_XARRAY(fpgamr_user_bytes);
static DEFINE_XARRAY(fpgamr_dev_bytes);

/**
 * struct fpgamr_file - one open file description of /dev/fpgamr-dmaK
 * @fdev:	the accelerator (a reference is held)
 * @bufs:	handle -> struct fpgamr_buf (holding one reference each)
 * @alloc_lock:	serialises ALLOC against FREE so a handle is never seen
 *		half-published
 */
struct fpgamr_file {
	struct fpgamr_dev *fdev;
	struct xarray bufs;
	struct mutex alloc_lock;
};

static_assert(sizeof(struct fpgamr_info) == 64);
static_assert(sizeof(struct fpgamr_submit) == 56);
static_assert(sizeof(struct fpgamr_alloc) == 24);
static_assert(sizeof(struct fpgamr_free) == 8);
static_assert(sizeof(struct fpgamr_sync) == 24);

static unsigned long fpgamr_xa_bytes(struct xarray *xa, unsigned long idx)
{
	void *v = xa_load(xa, idx);

	return v ? xa_to_value(v) : 0;
}

static int fpgamr_xa_set(struct xarray *xa, unsigned long idx,
			 unsigned long bytes)
{
	if (!bytes) {
		xa_erase(xa, idx);
		return 0;
	}
	return xa_err(xa_store(xa, idx, xa_mk_value(bytes), GFP_KERNEL));
}

/*
 * Charge size bytes to the device and to uid before allocating: EDQUOT
 * over the user's cap, ENOSPC over the device's.
 */
static int fpgamr_charge(struct fpgamr_dev *fdev, kuid_t uid, size_t size)
{
	unsigned long user, dev;
	int ret;

	mutex_lock(&fpgamr_quota_lock);
	user = fpgamr_xa_bytes(&fpgamr_user_bytes, __kuid_val(uid));
	dev = fpgamr_xa_bytes(&fpgamr_dev_bytes, fdev->id);
	if (size > fpgamr_max_user_bytes || user > fpgamr_max_user_bytes - size)
		ret = -EDQUOT;
	else if (size > fpgamr_max_dev_bytes || dev > fpgamr_max_dev_bytes - size)
		ret = -ENOSPC;
	else
		ret = fpgamr_xa_set(&fpgamr_user_bytes, __kuid_val(uid), user + size);
	if (!ret) {
		ret = fpgamr_xa_set(&fpgamr_dev_bytes, fdev->id, dev + size);
		if (ret)
			fpgamr_xa_set(&fpgamr_user_bytes, __kuid_val(uid), user);
	}
	mutex_unlock(&fpgamr_quota_lock);
	return ret;
}

static void fpgamr_uncharge(struct fpgamr_dev *fdev, kuid_t uid, size_t size)
{
	unsigned long user, dev;

	mutex_lock(&fpgamr_quota_lock);
	user = fpgamr_xa_bytes(&fpgamr_user_bytes, __kuid_val(uid));
	dev = fpgamr_xa_bytes(&fpgamr_dev_bytes, fdev->id);
	/* lowering an entry never allocates */
	fpgamr_xa_set(&fpgamr_user_bytes, __kuid_val(uid), user - size);
	fpgamr_xa_set(&fpgamr_dev_bytes, fdev->id, dev - size);
	mutex_unlock(&fpgamr_quota_lock);
}

static void fpgamr_buf_release(struct kref *ref)
{
	struct fpgamr_buf *buf = container_of(ref, struct fpgamr_buf, ref);
	struct fpgamr_dev *fdev = buf->fdev;

	dma_free_pages(fdev->dev, buf->size, buf->page, buf->dma,
		       DMA_BIDIRECTIONAL);
	fpgamr_uncharge(fdev, buf->uid, buf->size);
	atomic_long_sub(buf->size, &fdev->bytes);
	atomic_long_dec(&fdev->buffers);
	kfree(buf);
	fpgamr_dev_put(fdev);
}

static void fpgamr_buf_put(struct fpgamr_buf *buf)
{
	kref_put(&buf->ref, fpgamr_buf_release);
}

/* Zero the buffer and leave the zeroes in memory, not only in the cache. */
static void fpgamr_buf_clear(struct fpgamr_buf *buf)
{
	unsigned long i;

	for (i = 0; i < buf->size >> PAGE_SHIFT; i++) {
		clear_highpage(buf->page + i);
		cond_resched();
	}
	if (!buf->fdev->coherent)
		dma_sync_single_for_device(buf->fdev->dev, buf->dma, buf->size,
					   DMA_BIDIRECTIONAL);
}

static struct fpgamr_buf *fpgamr_buf_create(struct fpgamr_dev *fdev,
					    size_t size)
{
	kuid_t uid = current_uid();
	struct fpgamr_buf *buf;
	int ret;

	ret = fpgamr_charge(fdev, uid, size);
	if (ret)
		return ERR_PTR(ret);
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (buf)
		buf->page = dma_alloc_pages(fdev->dev, size, &buf->dma,
					    DMA_BIDIRECTIONAL,
					    GFP_KERNEL | __GFP_NOWARN);
	if (!buf || !buf->page) {
		kfree(buf);
		fpgamr_uncharge(fdev, uid, size);
		return ERR_PTR(-ENOMEM);
	}

	kref_init(&buf->ref);
	buf->fdev = fdev;
	buf->size = size;
	buf->uid = uid;
	fpgamr_dev_get(fdev);
	atomic_long_inc(&fdev->buffers);
	atomic_long_add(size, &fdev->bytes);
	fpgamr_buf_clear(buf);
	return buf;
}

/* Look a handle up and take a reference, or return NULL. */
static struct fpgamr_buf *fpgamr_buf_lookup(struct fpgamr_file *file,
					    unsigned long handle)
{
	struct fpgamr_buf *buf;

	xa_lock(&file->bufs);
	buf = xa_load(&file->bufs, handle);
	if (buf)
		kref_get(&buf->ref);
	xa_unlock(&file->bufs);
	return buf;
}

static int fpgamr_ioc_info(struct fpgamr_file *file, void __user *arg)
{
	struct fpgamr_dev *fdev = file->fdev;
	struct fpgamr_info info = {
		.api_version = FPGAMR_API_VERSION,
		.design_id = fdev->design_id,
		.regmap_version = fdev->regmap_version,
		.uio_index = fdev->uio.uio_dev->minor,
		.sync_align = fpgamr_sync_align(),
		.max_buf_bytes = fpgamr_max_buf_bytes,
		.page_size = PAGE_SIZE,
		.dma_bits = fpgamr_dma_bits,
		.max_dev_bytes = fpgamr_max_dev_bytes,
		.max_user_bytes = fpgamr_max_user_bytes,
		.bus_bytes = fdev->bus_bytes,
	};

	if (fdev->coherent)
		info.flags |= FPGAMR_INFO_COHERENT;
	if (copy_to_user(arg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static int fpgamr_publish(struct fpgamr_file *file, struct fpgamr_buf *buf,
			  struct fpgamr_alloc *req, void __user *arg)
{
	u32 handle;
	int ret;

	ret = xa_alloc(&file->bufs, &handle, buf,
		       XA_LIMIT(1, FPGAMR_MAX_BUFFERS), GFP_KERNEL);
	if (ret)
		return ret == -EBUSY ? -ENOSPC : ret;

	req->size = buf->size;
	req->mmap_offset = (u64)handle << PAGE_SHIFT;
	req->handle = handle;
	req->flags = file->fdev->coherent ? FPGAMR_BUF_COHERENT : 0;
	if (copy_to_user(arg, req, sizeof(*req))) {
		xa_erase(&file->bufs, handle);
		return -EFAULT;
	}
	return 0;
}

static int fpgamr_ioc_alloc(struct fpgamr_file *file, void __user *arg)
{
	struct fpgamr_alloc req;
	struct fpgamr_buf *buf;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.flags || !req.size)
		return -EINVAL;
	if (req.size > fpgamr_max_buf_bytes)
		return -E2BIG;

	buf = fpgamr_buf_create(file->fdev, PAGE_ALIGN(req.size));
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	mutex_lock(&file->alloc_lock);
	ret = fpgamr_publish(file, buf, &req, arg);
	mutex_unlock(&file->alloc_lock);
	if (ret)
		fpgamr_buf_put(buf);
	return ret;
}

/* ---- jobs: the kernel page ------------------------------------------- */

static void fpgamr_wr64(struct fpgamr_dev *fdev, unsigned int lo, u64 v)
{
	writel(lower_32_bits(v), fdev->regs + lo);
	writel(upper_32_bits(v), fdev->regs + lo + 4);
}

/*
 * The job's references dropped: the device no longer uses its buffers.  A
 * job that ended in error is logged with the bus address of its failing
 * burst: ERR_ADDR is on the kernel page (register map 3.2), so the log is
 * the only place it shows; user space learns only the error code (STATUS).
 * Called with the device idle after the job's START (its STATUS is the job's).
 */
static void fpgamr_job_retire(struct fpgamr_dev *fdev)
{
	u32 status = fdev->job.owner ?
		     readl(fdev->regs + FPGAMR_REG_STATUS) : 0;

	if (status & FPGAMR_STATUS_ERROR_MASK)
		dev_err_ratelimited(fdev->dev,
				    "job %u ended in DMA error %u at bus address 0x%llx\n",
				    fdev->job.seq,
				    (status & FPGAMR_STATUS_ERR_CODE_MASK) >>
				    FPGAMR_STATUS_ERR_CODE_SHIFT,
				    (u64)readl(fdev->regs + FPGAMR_REG_ERR_ADDR_HI) << 32 |
				    readl(fdev->regs + FPGAMR_REG_ERR_ADDR_LO));
	if (fdev->job.src)
		fpgamr_buf_put(fdev->job.src);
	if (fdev->job.dst)
		fpgamr_buf_put(fdev->job.dst);
	memset(&fdev->job, 0, sizeof(fdev->job));
}

/* the device took the last START (JOBS_STARTED) and is not busy */
static bool fpgamr_job_idle(struct fpgamr_dev *fdev)
{
	if (fdev->job.owner &&
	    readl(fdev->regs + FPGAMR_REG_JOBS_STARTED) != fdev->job.seq)
		return false;
	return !(readl(fdev->regs + FPGAMR_REG_STATUS) &
		 FPGAMR_STATUS_BUSY_MASK);
}

/*
 * Stop the device's job and wait until it is idle, then drop the job's
 * buffers.  Under job_lock, with the registers mapped.  A device that does
 * not stop keeps the buffers (leaked, never handed to anyone else) and
 * takes no more jobs.
 */
static int fpgamr_job_stop(struct fpgamr_dev *fdev)
{
	void __iomem *regs = fdev->regs;
	u32 v;
	int ret;

	if (!fdev->job.owner)
		return 0;
	/* its START first: an ABORT before it would be lost */
	ret = readl_poll_timeout(regs + FPGAMR_REG_JOBS_STARTED, v,
				 v == fdev->job.seq, USEC_PER_MSEC,
				 FPGAMR_STOP_TIMEOUT_US);
	if (!ret && (readl(regs + FPGAMR_REG_STATUS) & FPGAMR_STATUS_BUSY_MASK)) {
		writel(FPGAMR_CTRL_ABORT_MASK, regs + FPGAMR_REG_CTRL);
		ret = readl_poll_timeout(regs + FPGAMR_REG_STATUS, v,
					 !(v & FPGAMR_STATUS_BUSY_MASK),
					 USEC_PER_MSEC, FPGAMR_STOP_TIMEOUT_US);
	}
	if (ret) {
		snprintf(fdev->wedged_why, sizeof(fdev->wedged_why),
			 "the device did not stop its job within %lu ms (JOBS_STARTED 0x%08x of 0x%08x, STATUS 0x%08x)",
			 (unsigned long)(FPGAMR_STOP_TIMEOUT_US / USEC_PER_MSEC),
			 readl(regs + FPGAMR_REG_JOBS_STARTED), fdev->job.seq,
			 readl(regs + FPGAMR_REG_STATUS));
		dev_err(fdev->dev, "%s: its buffers stay allocated, no more jobs\n",
			fdev->wedged_why);
		fdev->wedged = true;
		memset(&fdev->job, 0, sizeof(fdev->job));
		return -EIO;
	}
	fpgamr_job_retire(fdev);
	return 0;
}

/*
 * sysfs `state`: "idle", "running" (a job the device has not finished, or
 * one being started or stopped), or "wedged: REASON" (a job it did not stop;
 * no more jobs until the device is probed again).  The NodeManager's health
 * check and fpgamr doctor read it.  The attribute exists only while the
 * registers are mapped (probe creates it last, removal drops it first); a
 * reader never waits for a stop (up to 5 s) behind job_lock.
 */
ssize_t fpgamr_state_show(struct fpgamr_dev *fdev, char *buf)
{
	ssize_t n;

	if (!mutex_trylock(&fdev->job_lock))
		return sysfs_emit(buf, "running\n");
	if (fdev->wedged)
		n = sysfs_emit(buf, "wedged: %s\n", fdev->wedged_why);
	else if (fdev->job.owner && !fpgamr_job_idle(fdev))
		n = sysfs_emit(buf, "running\n");
	else
		n = sysfs_emit(buf, "idle\n");
	mutex_unlock(&fdev->job_lock);
	return n;
}

/* removal: stop whatever runs (fdev->lock held for writing) */
void fpgamr_job_stop_all(struct fpgamr_dev *fdev)
{
	mutex_lock(&fdev->job_lock);
	fpgamr_job_stop(fdev);
	mutex_unlock(&fdev->job_lock);
}

/*
 * Before a buffer of file (buf, or any: NULL) can be freed: if the device
 * runs a job of file that uses it, stop the device first.
 */
static void fpgamr_job_stop_file(struct fpgamr_file *file,
				 struct fpgamr_buf *buf)
{
	struct fpgamr_dev *fdev = file->fdev;

	down_read(&fdev->lock);
	mutex_lock(&fdev->job_lock);
	/* after removal no job is left: fpgamr_job_stop_all ran */
	if (!fdev->gone && fdev->job.owner == file &&
	    (!buf || fdev->job.src == buf || fdev->job.dst == buf))
		fpgamr_job_stop(fdev);
	mutex_unlock(&fdev->job_lock);
	up_read(&fdev->lock);
}

/* [off, off + n * unit rounded up to whole beats) lies inside buf */
static int fpgamr_job_range(const struct fpgamr_buf *buf, u64 off, u64 n,
			    u64 unit, u32 beat)
{
	u64 bytes, end;

	if (check_mul_overflow(n, unit, &bytes) ||
	    check_add_overflow(bytes, (u64)beat - 1, &bytes))
		return -ERANGE;
	bytes &= ~((u64)beat - 1);
	if (check_add_overflow(off, bytes, &end) || end > buf->size)
		return -ERANGE;
	return 0;
}

static int fpgamr_submit_check(struct fpgamr_dev *fdev,
			       const struct fpgamr_submit *req)
{
	bool search = req->op == FPGAMR_JOB_SEARCH;

	if (req->flags || (req->op != FPGAMR_JOB_HASH && !search))
		return -EINVAL;
	if (req->width < fdev->min_width || req->width > fdev->max_width)
		return -EINVAL;
	if (search)
		return req->src_handle || req->src_offset || !req->match_cap ||
		       !IS_ALIGNED(req->dst_offset, FPGAMR_MATCH_RECORD_BYTES) ?
		       -EINVAL : 0;
	return req->match_cap || req->first ||
	       !IS_ALIGNED(req->src_offset, fdev->bus_bytes) ||
	       !IS_ALIGNED(req->dst_offset, fdev->bus_bytes) ? -EINVAL : 0;
}

/* the checked job into the kernel page, then START */
static void fpgamr_job_start(struct fpgamr_dev *fdev,
			     const struct fpgamr_submit *req,
			     struct fpgamr_buf *src, struct fpgamr_buf *dst)
{
	writel(req->op << FPGAMR_MODE_OP_SHIFT |
	       req->width << FPGAMR_MODE_WIDTH_SHIFT,
	       fdev->regs + FPGAMR_REG_MODE);
	fpgamr_wr64(fdev, FPGAMR_REG_START_LO, req->first);
	fpgamr_wr64(fdev, FPGAMR_REG_COUNT_LO, req->count);
	fpgamr_wr64(fdev, FPGAMR_REG_SRC_LO, src ? src->dma + req->src_offset : 0);
	fpgamr_wr64(fdev, FPGAMR_REG_DST_LO, dst->dma + req->dst_offset);
	writel(req->match_cap, fdev->regs + FPGAMR_REG_MATCH_CAP);
	fdev->job.seq = readl(fdev->regs + FPGAMR_REG_JOBS_STARTED) + 1;
	writel(FPGAMR_CTRL_START_MASK, fdev->regs + FPGAMR_REG_CTRL);
}

static int fpgamr_ioc_submit(struct fpgamr_file *file, void __user *arg)
{
	struct fpgamr_dev *fdev = file->fdev;
	struct fpgamr_buf *src = NULL, *dst = NULL;
	struct fpgamr_submit req;
	u32 beat = fdev->bus_bytes;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	ret = fpgamr_submit_check(fdev, &req);
	if (ret)
		return ret;
	dst = fpgamr_buf_lookup(file, req.dst_handle);
	if (req.op == FPGAMR_JOB_HASH)
		src = fpgamr_buf_lookup(file, req.src_handle);
	if (!dst || (req.op == FPGAMR_JOB_HASH && !src)) {
		ret = -ENOENT;
		goto out;
	}
	if (req.op == FPGAMR_JOB_HASH)
		ret = fpgamr_job_range(src, req.src_offset, req.count,
				       req.width > 4 ? 8 : 4, beat) ?:
		      fpgamr_job_range(dst, req.dst_offset, req.count,
				       FPGAMR_DIGEST_BYTES, beat);
	else
		ret = fpgamr_job_range(dst, req.dst_offset, req.match_cap,
				       FPGAMR_MATCH_RECORD_BYTES, beat);
	if (ret)
		goto out;

	mutex_lock(&fdev->job_lock);
	if (fdev->wedged)
		ret = -EIO;
	else if (!fpgamr_job_idle(fdev))
		ret = -EBUSY;
	else	/* a port that could not carry the job's DMA: -ENOLINK */
		ret = fpgamr_port_check(fdev->dev, &fdev->port);
	if (!ret) {
		fpgamr_job_retire(fdev);	/* the last job has ended */
		fpgamr_job_start(fdev, &req, src, dst);
		fdev->job.owner = file;
		fdev->job.src = src;	/* the lookups' references */
		fdev->job.dst = dst;
		src = dst = NULL;
	}
	mutex_unlock(&fdev->job_lock);
out:
	if (src)
		fpgamr_buf_put(src);
	if (dst)
		fpgamr_buf_put(dst);
	return ret;
}

static int fpgamr_ioc_abort(struct fpgamr_file *file)
{
	struct fpgamr_dev *fdev = file->fdev;
	int ret = 0;

	u32 v;

	mutex_lock(&fdev->job_lock);
	if (fdev->job.owner != file)
		ret = -ENOENT;
	/* after its START has landed, as in fpgamr_job_stop */
	else if (readl_poll_timeout(fdev->regs + FPGAMR_REG_JOBS_STARTED, v,
				    v == fdev->job.seq, USEC_PER_MSEC,
				    FPGAMR_STOP_TIMEOUT_US))
		ret = -EIO;
	else
		writel(FPGAMR_CTRL_ABORT_MASK, fdev->regs + FPGAMR_REG_CTRL);
	mutex_unlock(&fdev->job_lock);
	return ret;
}

static int fpgamr_ioc_free(struct fpgamr_file *file, void __user *arg)
{
	struct fpgamr_free req;
	struct fpgamr_buf *buf;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.reserved)
		return -EINVAL;

	mutex_lock(&file->alloc_lock);
	buf = xa_erase(&file->bufs, req.handle);
	mutex_unlock(&file->alloc_lock);
	if (!buf)
		return -ENOENT;
	fpgamr_job_stop_file(file, buf);
	fpgamr_buf_put(buf);
	return 0;
}

static int fpgamr_sync_dir(u32 direction, enum dma_data_direction *dir)
{
	switch (direction) {
	case FPGAMR_DMA_BIDIRECTIONAL:
		*dir = DMA_BIDIRECTIONAL;
		return 0;
	case FPGAMR_DMA_TO_DEVICE:
		*dir = DMA_TO_DEVICE;
		return 0;
	case FPGAMR_DMA_FROM_DEVICE:
		*dir = DMA_FROM_DEVICE;
		return 0;
	default:
		return -EINVAL;
	}
}

static int fpgamr_sync_check(const struct fpgamr_sync *req)
{
	unsigned int align = fpgamr_sync_align();

	if (!req->length)
		return -EINVAL;
	if (!IS_ALIGNED(req->offset, align) || !IS_ALIGNED(req->length, align))
		return -EINVAL;
	return 0;
}

static int fpgamr_ioc_sync(struct fpgamr_file *file, void __user *arg,
			   bool for_device)
{
	struct fpgamr_dev *fdev = file->fdev;
	enum dma_data_direction dir;
	struct fpgamr_sync req;
	struct fpgamr_buf *buf;
	dma_addr_t addr;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	ret = fpgamr_sync_dir(req.direction, &dir);
	if (!ret)
		ret = fpgamr_sync_check(&req);
	if (ret)
		return ret;

	buf = fpgamr_buf_lookup(file, req.handle);
	if (!buf)
		return -ENOENT;
	if (req.offset >= buf->size || req.length > buf->size - req.offset) {
		fpgamr_buf_put(buf);
		return -ERANGE;
	}

	addr = buf->dma + req.offset;
	if (fdev->coherent)
		;	/* ACP-style port: the hardware keeps caches coherent */
	else if (for_device)
		dma_sync_single_for_device(fdev->dev, addr, req.length, dir);
	else
		dma_sync_single_for_cpu(fdev->dev, addr, req.length, dir);
	fpgamr_buf_put(buf);
	return 0;
}

/*
 * API 2's ALLOC: struct fpgamr_alloc of 32 bytes, with the buffer's bus
 * address.  Refused like any unknown request (ENOTTY), with a line that says
 * why: a caller built against the old header.
 */
#define FPGAMR_IOC_ALLOC_API2	_IOC(_IOC_READ | _IOC_WRITE, FPGAMR_IOC_MAGIC, 0x01, 32)

static long fpgamr_dispatch(struct fpgamr_file *file, unsigned int cmd,
			    void __user *arg)
{
	switch (cmd) {
	case FPGAMR_IOC_ALLOC_API2:
		dev_warn_ratelimited(file->fdev->dev,
				     "ALLOC of fpgamr API 2 refused (ENOTTY) from %s[%d]: this driver speaks API %d, which gives user space no bus address; rebuild the caller against its <linux/fpgamr.h>\n",
				     current->comm, task_pid_nr(current), FPGAMR_API_VERSION);
		return -ENOTTY;
	case FPGAMR_IOC_INFO:
		return fpgamr_ioc_info(file, arg);
	case FPGAMR_IOC_ALLOC:
		return fpgamr_ioc_alloc(file, arg);
	case FPGAMR_IOC_SYNC_FOR_DEVICE:
		return fpgamr_ioc_sync(file, arg, true);
	case FPGAMR_IOC_SYNC_FOR_CPU:
		return fpgamr_ioc_sync(file, arg, false);
	case FPGAMR_IOC_SUBMIT:
		return fpgamr_ioc_submit(file, arg);
	case FPGAMR_IOC_ABORT:
		return fpgamr_ioc_abort(file);
	default:
		return -ENOTTY;
	}
}

static long fpgamr_ioctl(struct file *filp, unsigned int cmd,
			 unsigned long arg)
{
	struct fpgamr_file *file = filp->private_data;
	struct fpgamr_dev *fdev = file->fdev;
	long ret;

	/* FREE only drops references: it works even after removal */
	if (cmd == FPGAMR_IOC_FREE)
		return fpgamr_ioc_free(file, (void __user *)arg);

	down_read(&fdev->lock);
	if (fdev->gone)
		ret = -ENODEV;
	else
		ret = fpgamr_dispatch(file, cmd, (void __user *)arg);
	up_read(&fdev->lock);
	return ret;
}

static void fpgamr_vm_open(struct vm_area_struct *vma)
{
	struct fpgamr_buf *buf = vma->vm_private_data;

	kref_get(&buf->ref);
}

static void fpgamr_vm_close(struct vm_area_struct *vma)
{
	fpgamr_buf_put(vma->vm_private_data);
}

static const struct vm_operations_struct fpgamr_vm_ops = {
	.open = fpgamr_vm_open,
	.close = fpgamr_vm_close,
};

static int fpgamr_mmap_buf(struct fpgamr_file *file,
			   struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	struct fpgamr_buf *buf;
	int ret;

	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_pgoff > FPGAMR_MAX_BUFFERS)
		return -ENXIO;
	buf = fpgamr_buf_lookup(file, vma->vm_pgoff);
	if (!buf)
		return -ENXIO;
	if (len > buf->size) {
		fpgamr_buf_put(buf);
		return -EINVAL;
	}

	/* cacheable: vm_page_prot is left as it is */
	ret = remap_pfn_range(vma, vma->vm_start, page_to_pfn(buf->page), len,
			      vma->vm_page_prot);
	if (ret) {
		fpgamr_buf_put(buf);
		return ret;
	}
	vma->vm_private_data = buf;
	vma->vm_ops = &fpgamr_vm_ops;
	return 0;
}

/*
 * No fdev->lock here: mmap runs under mmap_lock, and the ioctls fault on
 * mmap_lock while holding fdev->lock.  Mapping a live buffer does not touch
 * the device, so a racing removal is harmless.
 */
static int fpgamr_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct fpgamr_file *file = filp->private_data;

	if (READ_ONCE(file->fdev->gone))
		return -ENODEV;
	return fpgamr_mmap_buf(file, vma);
}

/* iterate_fd: fd is the accelerator's UIO node */
static int fpgamr_is_uio(const void *devt, struct file *f, unsigned int fd)
{
	struct inode *inode = file_inode(f);

	return S_ISCHR(inode->i_mode) && inode->i_rdev == *(const dev_t *)devt;
}

/*
 * The DMA node opens only for a process that holds the accelerator's UIO
 * node open: the devices cgroup that grants a container the UIO node (the
 * one node YARN's device framework knows per device) then grants or denies
 * the DMA node with it.
 */
static int fpgamr_open_allowed(struct fpgamr_dev *fdev)
{
	dev_t uio;
	int ret = 0;

	down_read(&fdev->lock);
	if (fdev->gone || !fdev->uio.uio_dev)
		ret = -ENODEV;
	else
		uio = fdev->uio.uio_dev->dev.devt;
	up_read(&fdev->lock);
	if (!ret && !iterate_fd(current->files, 0, fpgamr_is_uio, &uio))
		ret = -EACCES;
	return ret;
}

static int fpgamr_open(struct inode *inode, struct file *filp)
{
	struct miscdevice *misc = filp->private_data;
	struct fpgamr_dev *fdev = container_of(misc, struct fpgamr_dev, misc);
	struct fpgamr_file *file;
	int ret;

	ret = fpgamr_open_allowed(fdev);
	if (ret)
		return ret;
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file)
		return -ENOMEM;
	xa_init_flags(&file->bufs, XA_FLAGS_ALLOC1);
	mutex_init(&file->alloc_lock);
	fpgamr_dev_get(fdev);
	file->fdev = fdev;
	filp->private_data = file;
	return 0;
}

static int fpgamr_release(struct inode *inode, struct file *filp)
{
	struct fpgamr_file *file = filp->private_data;
	struct fpgamr_buf *buf;
	unsigned long handle;

	/* a job of this file stops before any of its pages can go back */
	fpgamr_job_stop_file(file, NULL);
	xa_for_each(&file->bufs, handle, buf) {
		xa_erase(&file->bufs, handle);
		fpgamr_buf_put(buf);
	}
	xa_destroy(&file->bufs);
	mutex_destroy(&file->alloc_lock);
	fpgamr_dev_put(file->fdev);
	kfree(file);
	return 0;
}

static const struct file_operations fpgamr_dma_fops = {
	.owner = THIS_MODULE,
	.open = fpgamr_open,
	.release = fpgamr_release,
	.unlocked_ioctl = fpgamr_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = fpgamr_mmap,
	.llseek = noop_llseek,
};

int fpgamr_dma_register(struct fpgamr_dev *fdev)
{
	snprintf(fdev->misc_name, sizeof(fdev->misc_name), "%s%d",
		 FPGAMR_DMA_DEV_PREFIX, fdev->id);
	fdev->misc.minor = MISC_DYNAMIC_MINOR;
	fdev->misc.name = fdev->misc_name;
	fdev->misc.fops = &fpgamr_dma_fops;
	fdev->misc.parent = fdev->dev;
	fdev->misc.mode = 0600;
	return misc_register(&fdev->misc);
}

void fpgamr_dma_unregister(struct fpgamr_dev *fdev)
{
	misc_deregister(&fdev->misc);
}
