// SPDX-License-Identifier: GPL-2.0
/*
 * fpgamr-dma.c - DMA buffers of the fpgamr accelerator (/dev/fpgamr-dmaK)
 *
 * Buffers are physically contiguous (the DMA API takes them from CMA where
 * the kernel has it), mapped cacheable into user space, and kept coherent
 * with the accelerator by explicit sync ioctls, unless the port is coherent.
 *
 * Lifetime: a buffer is referenced by the handle table of the open file that
 * allocated it and by every VMA that maps it.  Its memory goes back to the
 * DMA API when the last of those references is dropped, so neither FREE nor
 * close can pull memory out from under a live mapping.
 */

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
};

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

static_assert(sizeof(struct fpgamr_info) == 40);
static_assert(sizeof(struct fpgamr_alloc) == 32);
static_assert(sizeof(struct fpgamr_free) == 8);
static_assert(sizeof(struct fpgamr_sync) == 24);

static void fpgamr_buf_release(struct kref *ref)
{
	struct fpgamr_buf *buf = container_of(ref, struct fpgamr_buf, ref);
	struct fpgamr_dev *fdev = buf->fdev;

	dma_free_pages(fdev->dev, buf->size, buf->page, buf->dma,
		       DMA_BIDIRECTIONAL);
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
	struct fpgamr_buf *buf;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);

	buf->page = dma_alloc_pages(fdev->dev, size, &buf->dma,
				    DMA_BIDIRECTIONAL,
				    GFP_KERNEL | __GFP_NOWARN);
	if (!buf->page) {
		kfree(buf);
		return ERR_PTR(-ENOMEM);
	}

	kref_init(&buf->ref);
	buf->fdev = fdev;
	buf->size = size;
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
	req->bus_addr = buf->dma;
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

static long fpgamr_dispatch(struct fpgamr_file *file, unsigned int cmd,
			    void __user *arg)
{
	switch (cmd) {
	case FPGAMR_IOC_INFO:
		return fpgamr_ioc_info(file, arg);
	case FPGAMR_IOC_ALLOC:
		return fpgamr_ioc_alloc(file, arg);
	case FPGAMR_IOC_SYNC_FOR_DEVICE:
		return fpgamr_ioc_sync(file, arg, true);
	case FPGAMR_IOC_SYNC_FOR_CPU:
		return fpgamr_ioc_sync(file, arg, false);
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

static int fpgamr_open(struct inode *inode, struct file *filp)
{
	struct miscdevice *misc = filp->private_data;
	struct fpgamr_dev *fdev = container_of(misc, struct fpgamr_dev, misc);
	struct fpgamr_file *file;

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
